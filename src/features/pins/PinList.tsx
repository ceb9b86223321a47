// The workspace's pins in the sidebar, oldest first: each opens its turn in the pins session.
import { usePins } from '../../api/hooks';
import { PINS_SESSION } from '../../api/pins';
import { useSelection } from '../../app/useSelection';
import { formatRelative } from '../../lib/format';
import { useUiStore } from '../../store';

export function PinList() {
  const { data: pins = [] } = usePins();
  const { turnId } = useSelection();
  if (pins.length === 0) return null;
  const open = (pinTurnId: string) => {
    const { selectSession, selectTurn } = useUiStore.getState();
    selectSession(PINS_SESSION);
    selectTurn(pinTurnId);
  };
  return (
    <section aria-label="Pins">
      <h2 className="pane-title">
        Pins <span className="pane-count">{pins.length}</span>
      </h2>
      <ul className="pin-list">
        {pins.map((pin) => (
          <li key={pin.turnId}>
            <button
              type="button"
              className={`pin-item${pin.turnId === turnId ? ' is-selected' : ''}`}
              aria-label={`Pin ${pin.name}`}
              onClick={() => open(pin.turnId)}
            >
              <span className="pin-item__name" title={pin.name}>
                {pin.name}
              </span>
              <span className="pin-item__at" title={new Date(pin.at).toLocaleString()}>
                {formatRelative(pin.at)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
