import { MAX_FILES_PER_PRODUCT } from '@lockdrop/contracts';
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useUploadUsage } from '../api/get-upload-usage';
import { deleteUpload, type UploadedFile } from '../api/upload-file';
import {
  addFile,
  addsFile,
  canAddFile,
  moveFile,
  productFileOf,
  removeFile,
  replaceFile,
  type FilesDraft,
} from '../lib/product-files';
import { useListFocus } from '../lib/use-list-focus';
import type { Product } from '../types';
import { FileUpload } from './file-upload';
import { cardClass } from './form-styles';
import { ProductFileRow } from './product-file-row';
import { TellBuyers } from './tell-buyers';

interface ProductFilesProps {
  /** The product as saved: which files are new, and when buyers were last told. */
  saved: Pick<Product, 'files' | 'buyersToldAt'>;
  draft: FilesDraft;
  onChange: (update: (draft: FilesDraft) => FilesDraft) => void;
  maxBytes: number;
}

/** What the one open uploader is for: adding a file, or replacing the one with this id. */
type Uploader = { replacing: string | null };

/**
 * The edit screen's "Files": every file buyers get, in order. Moves, replacements, removals and
 * additions stay in the draft until the form's Save sends them.
 */
export function ProductFiles({ saved, draft, onChange, maxBytes }: ProductFilesProps) {
  const id = useId();
  const [uploader, setUploader] = useState<Uploader | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focus = useListFocus();
  const { files } = draft;
  const usage = useUploadUsage().data;
  // Each added file uses one of the plan's monthly uploads (delivery counts files), so the
  // editor offers only as many as are left, whatever room the product has.
  const uploadsLeft =
    usage === undefined || usage.limit === null ? null : Math.max(usage.limit - usage.used, 0);
  const canAdd = canAddFile(draft) && uploadsLeft !== 0;
  const isNew = (fileId: string) => !saved.files.some((file) => file.fileId === fileId);
  // Best effort, as on create: an upload no product uses only costs storage until cleanup.
  const discard = (fileId: string) => {
    if (isNew(fileId)) void deleteUpload(fileId).catch(() => undefined);
  };

  function uploaded(upload: UploadedFile | null) {
    if (!upload || !uploader) return;
    const file = productFileOf(upload);
    const { replacing } = uploader;
    const replaced = files.find((current) => current.fileId === replacing);
    onChange((current) =>
      replaced ? replaceFile(current, replaced.fileId, file) : addFile(current, file),
    );
    if (replaced) discard(replaced.fileId);
    setUploader(null);
    setAnnouncement(
      replaced ? `${replaced.fileName} replaced by ${file.fileName}` : `${file.fileName} added`,
    );
    focus.request({ fileId: file.fileId, controls: ['replace'] });
  }

  function move(fileId: string, fileName: string, offset: -1 | 1) {
    const position = files.findIndex((file) => file.fileId === fileId) + 1 + offset;
    onChange((current) => moveFile(current, fileId, offset));
    setAnnouncement(`${fileName} moved to position ${position} of ${files.length}`);
    focus.request({ fileId, controls: offset === -1 ? ['up', 'down'] : ['down', 'up'] });
  }

  function remove(fileId: string, fileName: string) {
    onChange((current) => removeFile(current, fileId));
    discard(fileId);
    if (uploader?.replacing === fileId) setUploader(null);
    setAnnouncement(`${fileName} removed`);
    focus.request({ control: 'heading' });
  }

  function closeUploader() {
    const { replacing } = uploader ?? { replacing: null };
    setUploader(null);
    focus.request(replacing ? { fileId: replacing, controls: ['replace'] } : { control: 'add' });
  }

  const uploadPanel = (label: string) => (
    <div className="mt-3 rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <FileUpload maxBytes={maxBytes} label={label} onUploadedChange={uploaded} autoFocus />
      <Button size="sm" variant="ghost" className="mt-2" onClick={closeUploader}>
        Cancel
      </Button>
    </div>
  );

  return (
    <section ref={focus.sectionRef} aria-labelledby={`${id}-title`} className={cardClass}>
      <h2
        id={`${id}-title`}
        data-control="heading"
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 focus:outline-none"
      >
        Files
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Buyers get every file, in this order. {files.length} of {MAX_FILES_PER_PRODUCT} files.
      </p>
      {uploadsLeft !== null && (
        <p className="mt-1 text-xs text-slate-500" data-testid="uploads-left">
          Each file you add counts as one of your monthly uploads: {uploadsLeft} left this month.
        </p>
      )}
      <ol className="mt-4 space-y-3">
        {files.map((file, index) => (
          <ProductFileRow
            key={file.fileId}
            file={file}
            position={index + 1}
            count={files.length}
            previewGroup={`${id}-preview`}
            isPreview={draft.previewFileId === file.fileId}
            isNew={isNew(file.fileId)}
            onPreview={() => onChange((current) => ({ ...current, previewFileId: file.fileId }))}
            onMove={(offset) => move(file.fileId, file.fileName, offset)}
            onReplace={() => setUploader({ replacing: file.fileId })}
            onRemove={() => remove(file.fileId, file.fileName)}
          >
            {uploader?.replacing === file.fileId && uploadPanel(`Replace ${file.fileName}`)}
          </ProductFileRow>
        ))}
      </ol>
      {files.length === 1 && (
        <p className="mt-2 text-xs text-slate-500">A product keeps at least one file.</p>
      )}
      {uploader?.replacing === null ? (
        uploadPanel('Add a file')
      ) : (
        <div className="mt-4">
          <Button
            variant="secondary"
            size="sm"
            data-control="add"
            disabled={!canAdd}
            aria-describedby={canAdd ? undefined : `${id}-full`}
            onClick={() => setUploader({ replacing: null })}
          >
            <Plus className="size-4" aria-hidden="true" /> Add file
          </Button>
          {!canAdd && (
            <p id={`${id}-full`} className="mt-2 text-sm text-slate-600">
              {canAddFile(draft)
                ? "You have used this month's uploads. Upgrade your plan to add more files."
                : `A product holds at most ${MAX_FILES_PER_PRODUCT} files. Remove one to add another.`}
            </p>
          )}
        </div>
      )}
      {addsFile(saved, draft) && (
        <div className="mt-6 border-t border-slate-100 pt-4">
          <TellBuyers
            checked={draft.notifyBuyers}
            onChange={(notifyBuyers) => onChange((current) => ({ ...current, notifyBuyers }))}
            buyersToldAt={saved.buyersToldAt}
          />
        </div>
      )}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}
