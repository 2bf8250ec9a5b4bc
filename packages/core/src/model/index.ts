export * from './data-source';
export * from './workflow-model';
export * from './metadata';
export * from './uri-template';
export * from './guidance-template';
export * from './field-path';
export * from './definitions';
