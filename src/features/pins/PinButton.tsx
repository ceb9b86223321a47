// "Pin this point": marks the workspace's current state as a named point (a turn of kind pin
// in the pins session) that retention keeps, to rewind to later.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../api/client';
import { pinMutation, PINS_SESSION } from '../../api/pins';
import { useWorkspaceScope } from '../../api/workspaceScope';
import { useUiStore } from '../../store';
import { Modal } from '../actions/Modal';

function PinDialog({ onClose }: { onClose: () => void }) {
  const workspace = useWorkspaceScope();
  const [name, setName] = useState('');
  const pin = useMutation({
    ...pinMutation(workspace),
    onSuccess: ({ pin: made }) => {
      // Show the new pin where pins are listed as turns, so the person sees it was made.
      const { selectSession, selectTurn } = useUiStore.getState();
      selectSession(PINS_SESSION);
      selectTurn(made.turnId);
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    pin.mutate(name);
  };
  return (
    <Modal
      title="Pin this point"
      onClose={onClose}
      dismissible={!pin.isPending}
      footer={
        <>
          <button type="button" className="btn" disabled={pin.isPending} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="pin-form" className="btn btn--primary" disabled={pin.isPending}>
            {pin.isPending ? 'Pinning…' : 'Pin'}
          </button>
        </>
      }
    >
      <form id="pin-form" className="pin-form" onSubmit={submit}>
        <p>
          The workspace as it is now becomes a named point you can rewind to. Retention keeps it until you unpin it.
        </p>
        <label htmlFor="pin-name">Name</label>
        <input
          id="pin-name"
          value={name}
          placeholder="Known good"
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
        />
      </form>
      {pin.isError && (
        <p className="notice notice--danger" role="alert">
          {isApiError(pin.error, 'TURN_ACTIVE')
            ? 'An agent turn is being recorded; pin when it ends.'
            : `Could not pin: ${pin.error.message}`}
        </p>
      )}
    </Modal>
  );
}

export function PinButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn--small header-pin"
        title="Mark the workspace's current state as a named point"
        onClick={() => setOpen(true)}
      >
        Pin this point
      </button>
      {open && <PinDialog onClose={() => setOpen(false)} />}
    </>
  );
}
