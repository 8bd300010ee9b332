export { createServer, createLogger, type Server } from './server.js';
export { loadConfig, type Config } from './config.js';
