// The path questions are host-neutral: they live in the core, used by the hook's registry too.
export * from '../core/paths.js';
