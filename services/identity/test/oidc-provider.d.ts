// oidc-provider ships no type declarations; the test drives it through a handful of calls.
declare module 'oidc-provider';
