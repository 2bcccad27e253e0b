// Linked before every program of a WebAssembly tree (meson.build: --pre-js). Under Node, the
// program sees the process' environment (COLLIDE2D_BACKEND, CMOCKA_MESSAGE_OUTPUT, ...):
// emscripten's C library otherwise starts from a fixed set of variables. Pages have no
// process and keep that set.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env) {
    for (var name in process.env) ENV[name] = process.env[name];
  }
});
