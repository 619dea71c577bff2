export * from './config';
export * from './logger';
export * from './database';
export * from './health';
export * from './runtime';
export * from './clock';
export * from './bootstrap';
export * from './main';
