// The package in WebKit (Debian's WebKitGTK MiniBrowser on a virtual X server: JavaScriptCore,
// Safari's engine), page by page (tests/browser/page-suite.mjs).
import { openInWebKit } from '../../scripts/webkit.mjs';
import { pageSuite } from '../browser/page-suite.mjs';

pageSuite('WebKit', openInWebKit, { float16ArraySince: 'Safari 18.2, WebKitGTK 2.46' });
