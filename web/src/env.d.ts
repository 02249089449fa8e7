// Stylesheets are bundled by vite; importing one has no value to type.
declare module '*.css';
