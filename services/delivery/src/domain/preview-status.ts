export { previewStatusSchema, type PreviewStatus } from '@lockdrop/contracts';
