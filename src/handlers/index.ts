import type { Config } from '../config';
import type { Handlers } from '../../generated/routes';
import { ServiceError } from '../errors';
import { StoreUnavailableError } from '../state/store';
import { pair } from './pair';
import { validatePin, type ValidationState } from './validate-pin';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The hand-written operations, bound to the settings, a clock and the state store. */
export function createHandlers(config: Config, clock: Clock, state: ValidationState, onStoreError: () => void = () => {}): Handlers {
  // Fail closed: without its state, ValidatePin cannot say true safely.
  const failClosed = (error: unknown): never => {
    if (error instanceof StoreUnavailableError) {
      onStoreError();
      throw new ServiceError('unavailable', 'The service cannot validate PINs right now; try again later.', undefined, error.message);
    }
    throw error;
  };
  return {
    Pair: async (request) => pair(request, config),
    ValidatePin: (request) => validatePin(request, config, clock.now(), state).catch(failClosed),
  };
}
