// A page that nothing drives (?report=KEY: tests/browser/page-suite.mjs) reports at once a module
// that failed to load (or one it imports) or threw, instead of leaving its test to wait out the
// report timeout with nothing to say. A classic script, so it runs whatever the modules do.
(() => {
  const key = new URLSearchParams(location.search).get('report');
  if (key === null) return;
  addEventListener('error', (event) => {
    if (window.__result !== undefined) return; // the page's own result, or an earlier error, went
    const element = event.target instanceof Element ? event.target : null;
    let error;
    if (event instanceof ErrorEvent) error = String(event.error?.stack ?? event.message);
    else if (element instanceof HTMLScriptElement)
      error = `the ${element.type === 'module' ? 'module ' : ''}script ${element.src || '(inline)'} failed to load${element.type === 'module' ? ', or a module it imports did' : ''}`;
    else error = `${element ? `a <${element.localName}> (${element.src ?? element.href ?? ''})` : 'something'} failed to load`;
    window.__result = { error };
    fetch(`/__report?${key}`, { method: 'POST', body: JSON.stringify(window.__result) });
  }, true); // (capture: a script element's load error does not bubble)
})();
