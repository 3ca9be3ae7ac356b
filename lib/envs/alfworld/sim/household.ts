/**
 * The built-in household simulator: one game's state, the admissible actions of each moment, the text
 * feedback of each action (our own wording in ALFWorld's style) and the goal check. One object in hand at
 * a time; openable receptacles start closed; an inadmissible action changes nothing and reads
 * "Nothing happens.". It also records what a failure diagnosis needs (visits, untreated placements…).
 */
import {
  canonicalAction,
  listing,
  NOTHING_HAPPENS,
  normaliseAction,
  type EpisodeEvents,
  type StepResult,
} from "./actions";
import type { Game, Goal, ObjectDef, RecepDef } from "./generate";
import { TREATMENTS, type Treatment } from "./world";

type ObjState = { at: string | "hand"; clean: boolean; hot: boolean; cool: boolean };

/** One running game. Deterministic: the same actions always give the same observations. */
export class Household {
  readonly game: Game;
  readonly goal: Goal;
  private readonly receps = new Map<string, RecepDef>();
  private readonly objects = new Map<string, ObjectDef & { state: ObjState }>();
  private readonly isOpen = new Set<string>();
  private readonly lampsOn = new Set<string>();
  private location: string | null = null;
  private holding: string | null = null;
  private wonFlag = false;
  readonly events: EpisodeEvents = {
    visits: new Map(),
    closedVisited: new Set(),
    opened: 0,
    seenKinds: new Set(),
    inadmissible: [],
  };

  constructor(game: Game) {
    this.game = game;
    this.goal = game.goal;
    for (const r of game.receptacles) this.receps.set(r.name, r);
    for (const o of game.objects)
      this.objects.set(o.name, { ...o, state: { at: o.at, clean: false, hot: false, cool: false } });
  }

  /** The opening observation, ending with the task sentence. */
  reset(): StepResult {
    const names = this.game.receptacles.map((r) => r.name);
    const observation =
      "Welcome to the household simulator!\n\n" +
      `You are standing in the middle of a room. Looking around, you see ${listing(names)}.\n\n` +
      `Your task is to: ${this.game.task}`;
    return this.result(observation);
  }

  get where(): string | null {
    return this.location;
  }

  get inHand(): string | null {
    return this.holding;
  }

  get won(): boolean {
    return this.wonFlag;
  }

  /** The objects one can see at a receptacle (none inside a closed one). */
  visibleAt(recep: string): string[] {
    const r = this.receps.get(recep);
    if (!r || (r.openable && !this.isOpen.has(recep))) return [];
    return [...this.objects.values()].filter((o) => o.state.at === recep).map((o) => o.name);
  }

  isClosed(recep: string): boolean {
    const r = this.receps.get(recep);
    return r !== undefined && r.openable && !this.isOpen.has(recep);
  }

  kindOf(name: string): string | undefined {
    return this.objects.get(name)?.kind ?? this.receps.get(name)?.kind;
  }

  /** Every action that does something right now, sorted. */
  admissible(): string[] {
    const out = new Set<string>(["look", "inventory"]);
    for (const r of this.game.receptacles) if (r.name !== this.location) out.add(`go to ${r.name}`);
    const here = this.location === null ? undefined : this.receps.get(this.location);
    if (here) this.addLocalActions(here, out);
    if (this.holding) out.add(`examine ${this.holding}`);
    return [...out].sort();
  }

  private addLocalActions(here: RecepDef, out: Set<string>): void {
    out.add(`examine ${here.name}`);
    if (here.openable) out.add(this.isOpen.has(here.name) ? `close ${here.name}` : `open ${here.name}`);
    const visible = this.visibleAt(here.name);
    for (const name of visible) {
      const o = this.objects.get(name)!;
      if (o.fixed) out.add(`use ${name}`);
      else if (!this.holding) out.add(`take ${name} from ${here.name}`);
    }
    // A lamp stands beside its receptacle, so it can be used even when that receptacle is closed.
    for (const o of this.objects.values()) if (o.fixed && o.state.at === here.name) out.add(`use ${o.name}`);
    if (!this.holding) return;
    if (!(here.openable && !this.isOpen.has(here.name))) out.add(`put ${this.holding} in/on ${here.name}`);
    for (const [verb, t] of Object.entries(TREATMENTS)) {
      if (here.kind === t.appliance) out.add(`${verb} ${this.holding} with ${here.name}`);
    }
  }

  /** Applies one typed action; anything not admissible changes nothing and reads "Nothing happens.". */
  step(raw: string): StepResult {
    const action = canonicalAction(normaliseAction(raw));
    if (!this.admissible().includes(action)) {
      this.noteInadmissible(action);
      return this.result(NOTHING_HAPPENS);
    }
    const observation = this.apply(action);
    this.checkGoal();
    return this.result(observation);
  }

  private noteInadmissible(action: string): void {
    this.events.inadmissible.push(action);
    const take = /^take (.+?) from /.exec(action);
    if (take && this.holding && !this.events.takeWhileHolding) {
      this.events.takeWhileHolding = { object: take[1]!, holding: this.holding };
    }
  }

  private apply(action: string): string {
    const [verb] = action.split(" ", 1);
    switch (verb) {
      case "go":
        return this.goTo(action.slice("go to ".length));
      case "open":
        return this.setOpen(action.slice(5), true);
      case "close":
        return this.setOpen(action.slice(6), false);
      case "take":
        return this.take(action);
      case "put":
        return this.put(action);
      case "use":
        return this.use(action.slice(4));
      case "clean":
      case "heat":
      case "cool":
        return this.treat(verb, action);
      case "examine":
        return this.examine(action.slice(8));
      case "inventory":
        return this.holding ? `You are carrying: a ${this.holding}.` : "You are not carrying anything.";
      default:
        return this.look();
    }
  }

  private describe(recep: string): string {
    const r = this.receps.get(recep)!;
    const seen = this.visibleAt(recep);
    for (const name of seen) this.events.seenKinds.add(this.objects.get(name)!.kind);
    if (r.openable && !this.isOpen.has(recep)) return `The ${recep} is closed.`;
    if (r.openable) return `The ${recep} is open. Inside it, you see ${listing(seen)}.`;
    return `On the ${recep}, you see ${listing(seen)}.`;
  }

  private goTo(recep: string): string {
    this.location = recep;
    this.events.visits.set(recep, (this.events.visits.get(recep) ?? 0) + 1);
    // Only a search counts: walking to a closed appliance to heat or cool what one holds is not one.
    if (this.isClosed(recep) && !this.holding) this.events.closedVisited.add(recep);
    return `You arrive at ${recep}. ${this.describe(recep)}`;
  }

  private setOpen(recep: string, open: boolean): string {
    if (!open) {
      this.isOpen.delete(recep);
      return `You close the ${recep}.`;
    }
    this.isOpen.add(recep);
    this.events.opened += 1;
    const seen = this.visibleAt(recep);
    for (const name of seen) this.events.seenKinds.add(this.objects.get(name)!.kind);
    return `You open the ${recep}. Inside it, you see ${listing(seen)}.`;
  }

  private take(action: string): string {
    const [, name, recep] = /^take (.+) from (.+)$/.exec(action)!;
    this.objects.get(name!)!.state.at = "hand";
    this.holding = name!;
    return `You pick up the ${name!} from the ${recep!}.`;
  }

  private put(action: string): string {
    const [, name, recep] = /^put (.+) in\/on (.+)$/.exec(action)!;
    const o = this.objects.get(name!)!;
    o.state.at = recep!;
    this.holding = null;
    const t = this.goal.treatment;
    if (
      t &&
      !this.events.untreatedPut &&
      o.kind === this.goal.object &&
      this.kindOf(recep!) === this.goal.target &&
      !this.hasTreatment(o.state, t)
    ) {
      this.events.untreatedPut = { object: name!, recep: recep!, treatment: t };
    }
    return `You put the ${name!} in/on the ${recep!}.`;
  }

  private use(lamp: string): string {
    if (this.lampsOn.has(lamp)) {
      this.lampsOn.delete(lamp);
      return `You turn off the ${lamp}.`;
    }
    this.lampsOn.add(lamp);
    if (!this.holding && !this.events.lampEmptyHanded) this.events.lampEmptyHanded = lamp;
    return `You turn on the ${lamp}.`;
  }

  private treat(verb: string, action: string): string {
    const [, name, appliance] = /^\w+ (.+) with (.+)$/.exec(action)!;
    const s = this.objects.get(name!)!.state;
    if (verb === "clean") s.clean = true;
    if (verb === "heat") [s.hot, s.cool] = [true, false];
    if (verb === "cool") [s.cool, s.hot] = [true, false];
    const done = TREATMENTS[verb as Treatment].past.replace(/ed$/, "");
    return `You ${done} the ${name!} using the ${appliance!}.`;
  }

  private examine(name: string): string {
    if (this.receps.has(name)) return this.describe(name);
    const o = this.objects.get(name)!;
    const traits = [o.state.clean ? "clean" : null, o.state.hot ? "hot" : null, o.state.cool ? "cool" : null].filter(
      Boolean,
    );
    const lit = [...this.lampsOn].some((l) => this.objects.get(l)?.state.at === this.location);
    const light = lit ? ` You look at it closely in the light.` : "";
    return `This is a ${o.kind}.${traits.length ? ` It is ${traits.join(" and ")}.` : ""}${light}`;
  }

  private look(): string {
    if (this.location === null) {
      return `You are standing in the middle of a room. Looking around, you see ${listing(this.game.receptacles.map((r) => r.name))}.`;
    }
    return `You are at ${this.location}. ${this.describe(this.location)}`;
  }

  private hasTreatment(s: ObjState, t: Treatment): boolean {
    return t === "clean" ? s.clean : t === "heat" ? s.hot : s.cool;
  }

  private checkGoal(): void {
    const g = this.goal;
    if (g.type === "look_at_obj_in_light") {
      const held = this.holding ? this.objects.get(this.holding) : undefined;
      const lit = [...this.lampsOn].some(
        (l) => this.kindOf(l) === g.target && this.objects.get(l)?.state.at === this.location,
      );
      if (held?.kind === g.object && lit) this.wonFlag = true;
      return;
    }
    for (const r of this.game.receptacles) {
      if (r.kind !== g.target) continue;
      const ok = [...this.objects.values()].filter(
        (o) =>
          o.state.at === r.name && o.kind === g.object && (!g.treatment || this.hasTreatment(o.state, g.treatment)),
      );
      if (ok.length >= g.count) this.wonFlag = true;
    }
  }

  private result(observation: string): StepResult {
    return { observation, admissible: this.admissible(), won: this.wonFlag, done: this.wonFlag };
  }
}
