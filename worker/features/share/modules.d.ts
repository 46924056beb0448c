// Non-JavaScript modules bundled into the Worker (wrangler.toml [[rules]] and wrangler's defaults):
// a .wasm import is a compiled WebAssembly.Module, a .woff / .png import an ArrayBuffer.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
declare module '*.woff' {
  const data: ArrayBuffer;
  export default data;
}
declare module '*.png' {
  const data: ArrayBuffer;
  export default data;
}
