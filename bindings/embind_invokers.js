// embind's invokers (the JS function behind each emscripten::function), made without new Function,
// so that a page whose Content Security Policy allows 'wasm-unsafe-eval' but not 'unsafe-eval' (a
// Chrome extension's pages, say) can load the module. Emscripten 3.1.6's own eval-free invoker
// (DYNAMIC_EXECUTION=0) reads `arguments` into arrays and calls through apply: an ArgMax over
// [1,10] took 1.37x as long with it. These are closures of a fixed argument count, as the
// invokers embind otherwise compiles from strings. Linked with --js-library (CMakeLists.txt).
mergeInto(LibraryManager.library, {
  $craftInvokerFunction__deps: ['$throwBindingError'],
  $craftInvokerFunction: function (humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc) {
    // The module binds free functions whose parameters are numbers (no destructor to run after
    // the call); anything else fails its registration, so a new binding cannot slip past.
    var params = argTypes.slice(2);
    if (classType !== null || argTypes[1] !== null || params.some(function (t) { return t.destructorFunction !== null; }))
      throwBindingError(humanName + ': bindings/embind_invokers.js makes invokers of free functions of numbers only');
    var result = argTypes[0];
    var returns = result.name !== 'void';
    var done = function (rv) { return returns ? result['fromWireType'](rv) : undefined; };
    var count = params.length;
    var wrongCount = function (given) {
      throwBindingError('function ' + humanName + ' called with ' + given + ' arguments, expected ' + count + ' args!');
    };
    var t0 = params[0], t1 = params[1], t2 = params[2], t3 = params[3], t4 = params[4], t5 = params[5];
    switch (count) {
      case 0: return function () {
        if (arguments.length !== 0) wrongCount(arguments.length);
        return done(cppInvokerFunc(cppTargetFunc));
      };
      case 1: return function (a) {
        if (arguments.length !== 1) wrongCount(arguments.length);
        return done(cppInvokerFunc(cppTargetFunc, t0['toWireType'](null, a)));
      };
      case 2: return function (a, b) {
        if (arguments.length !== 2) wrongCount(arguments.length);
        return done(cppInvokerFunc(cppTargetFunc, t0['toWireType'](null, a), t1['toWireType'](null, b)));
      };
      case 3: return function (a, b, c) {
        if (arguments.length !== 3) wrongCount(arguments.length);
        return done(cppInvokerFunc(cppTargetFunc, t0['toWireType'](null, a), t1['toWireType'](null, b), t2['toWireType'](null, c)));
      };
      case 5: return function (a, b, c, d, e) {
        if (arguments.length !== 5) wrongCount(arguments.length);
        return done(cppInvokerFunc(cppTargetFunc, t0['toWireType'](null, a), t1['toWireType'](null, b), t2['toWireType'](null, c),
          t3['toWireType'](null, d), t4['toWireType'](null, e)));
      };
      case 6: return function (a, b, c, d, e, f) {
        if (arguments.length !== 6) wrongCount(arguments.length);
        return done(cppInvokerFunc(cppTargetFunc, t0['toWireType'](null, a), t1['toWireType'](null, b), t2['toWireType'](null, c),
          t3['toWireType'](null, d), t4['toWireType'](null, e), t5['toWireType'](null, f)));
      };
      default: return function () {  // the bench hooks' longer lists: not on a call's path
        if (arguments.length !== count) wrongCount(arguments.length);
        var wired = [cppTargetFunc];
        for (var i = 0; i < count; ++i) wired.push(params[i]['toWireType'](null, arguments[i]));
        return done(cppInvokerFunc.apply(null, wired));
      };
    }
  },
});
