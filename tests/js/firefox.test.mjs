// The package in headless Firefox (Debian's firefox-esr: SpiderMonkey's wasm SIMD), page by page
// (tests/browser/page-suite.mjs).
import { openInFirefox } from '../../scripts/firefox.mjs';
import { pageSuite } from '../browser/page-suite.mjs';

pageSuite('Firefox', openInFirefox, { float16ArraySince: 129 });
