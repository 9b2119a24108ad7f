export * from './stack.ts';
export * from './runner.ts';
export * from './method-id.ts';
