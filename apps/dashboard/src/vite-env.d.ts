/// <reference types="vite/client" />
interface ImportMetaEnv { readonly VITE_VITRINE_CLIENT_ID?: string }
interface ImportMeta { readonly env: ImportMetaEnv }
