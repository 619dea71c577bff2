import { locationRight, ownersByLocation } from './location-rights';

const admin = (teamIds: number[], all = false) => ({ all, teamIds, userIds: [] });

describe('locationRight', () => {
  it('lets the superadmin and an admin of every team change any location, shared ones included', () => {
    expect(locationRight([], undefined)).toBe('change');
    expect(locationRight([1, 2], undefined)).toBe('change');
    expect(locationRight([], admin([1], true))).toBe('change');
  });

  it('lets an admin change a location only when every team it belongs to is theirs', () => {
    expect(locationRight([1], admin([1, 2]))).toBe('change');
    expect(locationRight([1, 2], admin([1, 2]))).toBe('change');
    expect(locationRight([1, 3], admin([1, 2]))).toBe('partly');
  });

  it("hides another team's location from an admin, and keeps a shared one for the superadmin", () => {
    expect(locationRight([3], admin([1, 2]))).toBe('hidden');
    expect(locationRight([], admin([1, 2]))).toBe('shared');
    expect(locationRight([], admin([]))).toBe('shared');
  });
});

describe('ownersByLocation', () => {
  it('lists the teams that name each location', () => {
    const owners = ownersByLocation([
      { id: 1, locationIds: [10, 11] },
      { id: 2, locationIds: [11] },
      { id: 3, locationIds: [] },
    ]);
    expect([...owners.entries()]).toEqual([
      [10, [1]],
      [11, [1, 2]],
    ]);
  });
});
