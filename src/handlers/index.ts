import type { Config } from '../config';
import type { Handlers } from '../../generated/routes';
import { pair } from './pair';
import { validatePin } from './validate-pin';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The hand-written operations, bound to the settings and a clock. */
export function createHandlers(config: Config, clock: Clock = systemClock): Handlers {
  return {
    Pair: async (request) => pair(request, config),
    ValidatePin: async (request) => validatePin(request, config, clock.now()),
  };
}
