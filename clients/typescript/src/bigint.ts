// Big integers (counts, ranks, seeds) travel as strings of decimal digits so that no precision is lost
// in JSON; these two helpers turn them into BigInt and back, and refuse anything that is not a
// non-negative decimal integer (the only kind the service writes or accepts).
import type { BigInteger } from './spec.js';

const DECIMAL_DIGITS = /^[0-9]+$/;

/** The BigInt of a decimal string from the service ("3628800" -> 3628800n). */
export function toBigInt(value: BigInteger): bigint {
  if (!DECIMAL_DIGITS.test(value)) throw new RangeError(`not a string of decimal digits: ${JSON.stringify(value)}`);
  return BigInt(value);
}

/** The decimal string the service takes for a non-negative BigInt (3628800n -> "3628800"). */
export function fromBigInt(value: bigint): BigInteger {
  if (value < 0n) throw new RangeError(`the service's big integers are not negative: ${value}`);
  return value.toString(10);
}
