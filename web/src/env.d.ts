// Ambient declarations for the web app build: side-effect CSS imports resolved by Vite.
declare module '*.css'
