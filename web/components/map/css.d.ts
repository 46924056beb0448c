// The Worker's tsconfig also checks web/ (it server-renders the public pages) but has no Vite client
// types; the map's stylesheets are side-effect imports Vite bundles into the map's lazy chunk.
declare module '*.css';
