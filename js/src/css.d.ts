// The widgets import their CSS for esbuild to bundle beside the JS; to the
// type checker such an import is a module with nothing in it.
declare module "*.css";
