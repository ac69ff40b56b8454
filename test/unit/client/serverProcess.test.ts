import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverEnvironment } from '../../../client/src/serverProcess';

describe('the server process environment', () => {
  it('asks glibc on Linux for huge pages behind large blocks', () => {
    assert.deepEqual(serverEnvironment({}, 'linux'), { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
  });

  it('adds nothing on other systems', () => {
    assert.deepEqual(serverEnvironment({}, 'darwin'), {});
    assert.deepEqual(serverEnvironment({}, 'win32'), {});
  });

  it('keeps the tunables the editor was started with', () => {
    assert.deepEqual(
      serverEnvironment({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux'),
      { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1' },
    );
  });

  it("leaves the user's own choice of huge pages as it is", () => {
    assert.deepEqual(serverEnvironment({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0' }, 'linux'), {});
    assert.deepEqual(serverEnvironment({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=2' }, 'linux'), {});
  });
});
