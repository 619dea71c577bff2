import { temporaryPassword } from './temporary-password';

describe('temporaryPassword', () => {
  it('always meets the password policy and does not repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const p = temporaryPassword();
      expect(p.length).toBeGreaterThanOrEqual(6);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[0-9]/);
      seen.add(p);
    }
    expect(seen.size).toBe(500);
  });
});
