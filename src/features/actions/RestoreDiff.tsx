// One path of a preview: what it holds now against what the rollback makes of it (the turn's
// before side), or what a later turn changed in it.
import { imageTypeOf, type AgentReadResponse, type Side } from '../../../server/protocol';
import { useCurrentFile, useTurnDiff } from '../../api/hooks';
import { useIsDark } from '../../app/useTheme';
import { formatBytes } from '../../lib/format';
import { bothSidesRenderable, sidePlaceholder } from '../diff/DiffPanel';
import { ImageDiff, isImageDiff } from '../diff/ImageDiff';
import { LazyTextDiff } from '../diff/LazyTextDiff';
import { languageOf } from '../diff/language';

const ABSENT: Side = { exists: false, binary: false, tooLarge: false, truncated: false, size: 0, text: null };

/** The file on disk now, as a diff side. */
function sideOfCurrent(read: AgentReadResponse | null, uri: string): Side {
  if (!read) return ABSENT;
  const side: Side = {
    exists: true,
    binary: read.encoding === 'base64',
    tooLarge: false,
    truncated: false,
    size: read.size,
    text: null,
  };
  if (read.encoding === 'utf8') return { ...side, text: read.content };
  const type = imageTypeOf(uri);
  return type ? { ...side, image: { type, base64: read.content } } : side;
}

function SidesDiff({
  before,
  after,
  uri,
  beforeLabel,
  afterLabel,
}: {
  before: Side;
  after: Side;
  uri: string;
  beforeLabel: string;
  afterLabel: string;
}) {
  const dark = useIsDark();
  if (isImageDiff(before, after, uri))
    return <ImageDiff before={before} after={after} uri={uri} beforeLabel={beforeLabel} afterLabel={afterLabel} />;
  if (!bothSidesRenderable(before, after)) {
    const describe = (side: Side, which: 'before' | 'after') => sidePlaceholder(side, which) ?? formatBytes(side.size);
    return (
      <p className="muted">
        {beforeLabel}: {describe(before, 'before')}. {afterLabel}: {describe(after, 'after')}.
      </p>
    );
  }
  if (before.text === after.text)
    return (
      <p className="muted">
        {beforeLabel} and {afterLabel.toLowerCase()} are the same.
      </p>
    );
  return (
    <div className="plan-diff">
      <p className="plan-diff__caption">
        {beforeLabel} → {afterLabel}
      </p>
      <LazyTextDiff
        oldValue={before.text ?? ''}
        newValue={after.text ?? ''}
        split={false}
        wrap
        dark={dark}
        language={languageOf(uri)}
        virtual={false}
      />
    </div>
  );
}

/**
 * `uri` now (or at `from`, where a move-back takes it from) → after the restore. A path not changed
 * since is as the turn left it, its after side: only a changed or moved one is read from disk (a
 * file the turn deleted would answer 404 there).
 */
export function RestoreDiff({
  turnId,
  uri,
  from,
  conflict = true,
}: {
  turnId: string;
  uri: string;
  from?: string;
  conflict?: boolean;
}) {
  const fromDisk = conflict || from !== undefined;
  const current = useCurrentFile(from ?? uri, fromDisk);
  const turn = useTurnDiff(turnId, uri);
  if ((fromDisk && current.isPending) || turn.isPending)
    return (
      <p className="muted" role="status">
        Reading both sides…
      </p>
    );
  if ((fromDisk && current.isError) || turn.isError)
    return <p className="notice notice--danger">Could not read: {(current.error ?? turn.error)?.message}</p>;
  return (
    <SidesDiff
      before={fromDisk ? sideOfCurrent(current.data ?? null, from ?? uri) : turn.data.after}
      after={turn.data.before}
      uri={uri}
      beforeLabel="Now"
      afterLabel="After the restore"
    />
  );
}

/** What a later turn did to `uri`: the change a forced rollback would discard. */
export function LaterTurnDiff({ turnId, uri, number }: { turnId: string; uri: string; number: number }) {
  const diff = useTurnDiff(turnId, uri);
  if (diff.isPending)
    return (
      <p className="muted" role="status">
        Reading #{number}'s change…
      </p>
    );
  if (diff.isError)
    return (
      <p className="notice notice--danger">
        Could not read #{number}'s change: {diff.error.message}
      </p>
    );
  return (
    <SidesDiff
      before={diff.data.before}
      after={diff.data.after}
      uri={uri}
      beforeLabel={`Before #${number}`}
      afterLabel={`After #${number}`}
    />
  );
}
