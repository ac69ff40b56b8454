/**
 * Roles the trace format names. Any other string is allowed (the format says "or something else"), but the
 * analyzer then reads the event as a plain message: a misspelled "tool" loses its output, a misspelled
 * "assistant" its turn. A role a few edits from a known one is most likely such a typo.
 */
import { closestNames } from '../common/editDistance';
import type { Severity } from '../common/types';
import { roleValues } from './schema';
import { shorten } from '../common/text';

export const knownRoles: ReadonlySet<string> = new Set(roleValues);

/** The known roles a role most plausibly misspells, best first (several when it is ambiguous). */
export function roleSuggestions(role: string): string[] {
  return closestNames(role, roleValues);
}

/** A warning when the role looks like a typo of a known one, else a hint (custom roles exist). */
export function unknownRole(role: string): { severity: Severity; message: string } {
  const shown = JSON.stringify(shorten(role, 40));
  const suggestions = roleSuggestions(role);
  if (suggestions.length > 0) {
    return {
      severity: 'warning',
      message: `Unknown role ${shown}. Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}? The analyzer reads this event as a message with a role of its own`,
    };
  }
  return {
    severity: 'hint',
    message: `The role ${shown} is not one the trace format names (${roleValues.join(', ')}); the analyzer reads this event as a message with a role of its own`,
  };
}
