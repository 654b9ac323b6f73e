/**
 * Edits of the household model: players added, renamed and removed; grouped and ungrouped. Rules:
 * every player is in exactly one group of its own household; a group always has a coordinator
 * among its members and disappears with its last member. Each edit is one transaction and ends
 * with `household.changed`, which the player runtime follows (one player per group).
 */
import type { EngineEvents } from '../api/events.js';
import { EngineError } from '../api/errors.js';
import type { GroupView, PlayerView } from '../api/types.js';
import type { Player } from '../store/repositories/players.js';
import type { Store } from '../store/store.js';
import { groupIdFor } from './seed.js';
import type { HouseholdViews } from './views.js';

export interface HouseholdEditorOptions {
  store: Pick<Store, 'households' | 'groups' | 'players' | 'transaction'>;
  views: HouseholdViews;
  emit: (name: 'household.changed', data: EngineEvents['household.changed']) => void;
}

export class HouseholdEditor {
  private readonly store: HouseholdEditorOptions['store'];

  constructor(private readonly options: HouseholdEditorOptions) {
    this.store = options.store;
  }

  createPlayer(name: string, householdId?: string): PlayerView {
    const household =
      householdId === undefined ? this.store.households.list()[0] : this.store.households.get(householdId);
    if (!household)
      throw new EngineError(
        'not_found',
        householdId === undefined ? 'there is no household to add a player to' : `no household ${householdId}`,
      );
    cleanName(name);
    const id = this.freeId(`player-${slug(name)}`, (candidate) => this.store.players.get(candidate) !== undefined);
    this.store.transaction(() => {
      const groupId = this.freeGroupId(id);
      this.store.groups.create({ id: groupId, householdId: household.id, coordinatorId: id });
      this.store.players.create({
        id,
        householdId: household.id,
        groupId,
        name: cleanName(name),
        position: this.store.players.nextPosition(household.id),
      });
    });
    this.changed();
    return this.options.views.player(id)!;
  }

  renamePlayer(id: string, name: string): PlayerView {
    this.mustGetPlayer(id);
    this.store.players.setName(id, cleanName(name));
    this.changed();
    return this.options.views.player(id)!;
  }

  removePlayer(id: string): void {
    const player = this.mustGetPlayer(id);
    this.store.transaction(() => {
      this.store.players.delete(id);
      this.tidyGroup(player.groupId);
    });
    this.changed();
  }

  /** Puts the players in one group led by `coordinatorId` (default: the first). */
  group(playerIds: readonly string[], coordinatorId: string = playerIds[0]!): GroupView {
    const ids = [...new Set(playerIds)];
    if (!ids.includes(coordinatorId)) {
      throw new EngineError('invalid_input', `coordinatorId ${coordinatorId} is not one of playerIds`, {
        field: 'coordinatorId',
      });
    }
    const players = ids.map((id) => this.mustGetPlayer(id));
    const householdId = players[0]!.householdId;
    if (players.some((p) => p.householdId !== householdId)) {
      throw new EngineError('invalid_input', 'players of different households cannot be grouped', {
        field: 'playerIds',
      });
    }
    const coordinator = players.find((p) => p.id === coordinatorId)!;
    const groupId = this.store.transaction(() => {
      // The coordinator's group lives on when nobody outside the new group is left in it.
      const members = this.members(coordinator.groupId);
      const reuse = members.every((m) => ids.includes(m.id));
      const target = reuse ? coordinator.groupId : this.freeGroupId(coordinatorId);
      if (reuse) this.store.groups.setCoordinator(target, coordinatorId);
      else this.store.groups.create({ id: target, householdId, coordinatorId });
      const left = new Set<string>();
      for (const player of players) {
        if (player.groupId === target) continue;
        left.add(player.groupId);
        this.store.players.setGroup(player.id, target);
      }
      for (const old of left) this.tidyGroup(old);
      return target;
    });
    this.changed();
    return this.options.views.groups().find((g) => g.id === groupId)!;
  }

  /** Every member of the group ends up alone; the coordinator keeps the group. */
  ungroup(groupId: string): void {
    const group = this.store.groups.get(groupId);
    if (!group) throw new EngineError('not_found', `no group ${groupId}`);
    this.store.transaction(() => {
      for (const member of this.members(groupId)) {
        if (member.id === group.coordinatorId) continue;
        const own = this.freeGroupId(member.id);
        this.store.groups.create({ id: own, householdId: member.householdId, coordinatorId: member.id });
        this.store.players.setGroup(member.id, own);
      }
    });
    this.changed();
  }

  /** After members left a group: gone when empty, a new coordinator when it lost its own. */
  private tidyGroup(groupId: string): void {
    const group = this.store.groups.get(groupId);
    if (!group) return;
    const members = this.members(groupId);
    if (members.length === 0) this.store.groups.delete(groupId);
    else if (!members.some((m) => m.id === group.coordinatorId))
      this.store.groups.setCoordinator(groupId, members[0]!.id);
  }

  private members(groupId: string): Player[] {
    return this.store.players.list().filter((p) => p.groupId === groupId);
  }

  private mustGetPlayer(id: string): Player {
    const player = this.store.players.get(id);
    if (!player) throw new EngineError('not_found', `no player ${id}`);
    return player;
  }

  private freeGroupId(playerId: string): string {
    return this.freeId(groupIdFor(playerId), (candidate) => this.store.groups.get(candidate) !== undefined);
  }

  /** `base`, or `base-2`, `base-3`, … whichever is free. */
  private freeId(base: string, taken: (candidate: string) => boolean): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!taken(candidate)) return candidate;
    }
  }

  private changed(): void {
    const { views } = this.options;
    this.options.emit('household.changed', {
      households: views.households(),
      groups: views.groups(),
      players: views.players(),
    });
  }
}

function cleanName(name: string): string {
  const clean = name.trim();
  if (!clean) throw new EngineError('invalid_input', 'a player needs a name', { field: 'name' });
  return clean;
}

/** `Living Room` → `living-room`: ids that read like the names they were made from. */
function slug(name: string): string {
  const base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base || 'player';
}
