// Two images side by side. The bytes come through the authenticated API (an <img src> could
// not send the token) and show as data: URLs, which the page's CSP allows.
import type { Side } from '../../../server/protocol';
import { formatBytes } from '../../lib/format';

function imageSource(side: Side, uri: string): string | null {
  if (side.image) return `data:${side.image.type};base64,${side.image.base64}`;
  if (side.text !== null && uri.toLowerCase().endsWith('.svg')) {
    const bytes = new TextEncoder().encode(side.text);
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return `data:image/svg+xml;base64,${btoa(binary)}`;
  }
  return null;
}

export function isImageDiff(before: Side, after: Side, uri: string): boolean {
  return (
    [before, after].some((side) => imageSource(side, uri) !== null) &&
    [before, after].every((side) => !side.exists || imageSource(side, uri) !== null)
  );
}

function Picture({ side, uri, label }: { side: Side; uri: string; label: string }) {
  const source = imageSource(side, uri);
  return (
    <figure className="image-diff__side">
      <figcaption>
        {label}
        {side.exists ? ` · ${formatBytes(side.size)}` : ''}
      </figcaption>
      {source ? <img src={source} alt={label} /> : <p className="pane-empty">Absent</p>}
    </figure>
  );
}

export function ImageDiff({
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
  return (
    <div className="image-diff" role="group" aria-label="Image diff">
      <Picture side={before} uri={uri} label={beforeLabel} />
      <Picture side={after} uri={uri} label={afterLabel} />
    </div>
  );
}
