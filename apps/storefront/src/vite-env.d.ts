/// <reference types="vite/client" />
interface ImportMetaEnv { readonly VITE_VITRINE_CLIENT_ID?: string; readonly VITE_STORE_NAME?: string }
interface ImportMeta { readonly env: ImportMetaEnv }
