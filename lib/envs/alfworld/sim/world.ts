/**
 * The household catalogue of the built-in simulator: room layouts (which receptacles, how many, which
 * open and close), where each kind of object plausibly lies, and which objects each task type uses.
 * Pure data; the generator draws from it with a seeded RNG.
 */

/** ALFWorld's six task types, in the order the original lists them. */
export const TASK_TYPES = [
  "pick_and_place_simple",
  "look_at_obj_in_light",
  "pick_clean_then_place_in_recep",
  "pick_heat_then_place_in_recep",
  "pick_cool_then_place_in_recep",
  "pick_two_obj_and_place",
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export type RoomKind = "kitchen" | "bathroom" | "bedroom" | "livingroom";
export type Treatment = "clean" | "heat" | "cool";

/** One receptacle kind in a room: how many instances (inclusive range) and whether it opens. */
export interface RecepSpec {
  kind: string;
  min: number;
  max: number;
  openable?: boolean;
}

/** Room layouts, listed in the order the room description names them. */
export const ROOMS: Record<RoomKind, RecepSpec[]> = {
  kitchen: [
    { kind: "cabinet", min: 3, max: 6, openable: true },
    { kind: "coffeemachine", min: 1, max: 1 },
    { kind: "countertop", min: 1, max: 3 },
    { kind: "diningtable", min: 1, max: 1 },
    { kind: "drawer", min: 2, max: 4, openable: true },
    { kind: "fridge", min: 1, max: 1, openable: true },
    { kind: "garbagecan", min: 1, max: 1 },
    { kind: "microwave", min: 1, max: 1, openable: true },
    { kind: "shelf", min: 0, max: 2 },
    { kind: "sinkbasin", min: 1, max: 1 },
    { kind: "stoveburner", min: 2, max: 4 },
    { kind: "toaster", min: 1, max: 1 },
  ],
  bathroom: [
    { kind: "bathtubbasin", min: 1, max: 1 },
    { kind: "cabinet", min: 2, max: 4, openable: true },
    { kind: "countertop", min: 1, max: 1 },
    { kind: "drawer", min: 1, max: 3, openable: true },
    { kind: "garbagecan", min: 1, max: 1 },
    { kind: "shelf", min: 1, max: 2 },
    { kind: "sinkbasin", min: 1, max: 1 },
    { kind: "toilet", min: 1, max: 1 },
    { kind: "towelholder", min: 1, max: 1 },
  ],
  bedroom: [
    { kind: "bed", min: 1, max: 1 },
    { kind: "desk", min: 1, max: 1 },
    { kind: "drawer", min: 2, max: 4, openable: true },
    { kind: "dresser", min: 1, max: 1 },
    { kind: "garbagecan", min: 1, max: 1 },
    { kind: "safe", min: 0, max: 1, openable: true },
    { kind: "shelf", min: 1, max: 3 },
    { kind: "sidetable", min: 1, max: 2 },
  ],
  livingroom: [
    { kind: "armchair", min: 1, max: 1 },
    { kind: "cabinet", min: 1, max: 3, openable: true },
    { kind: "coffeetable", min: 1, max: 1 },
    { kind: "drawer", min: 1, max: 3, openable: true },
    { kind: "garbagecan", min: 1, max: 1 },
    { kind: "shelf", min: 1, max: 2 },
    { kind: "sidetable", min: 1, max: 2 },
    { kind: "sofa", min: 1, max: 1 },
    { kind: "tvstand", min: 1, max: 1 },
  ],
};

/** Where each object kind plausibly lies (receptacle kinds, most likely first). */
export const OBJECT_PLACES: Record<string, string[]> = {
  apple: ["countertop", "diningtable", "fridge", "garbagecan"],
  potato: ["countertop", "fridge", "diningtable", "garbagecan"],
  tomato: ["countertop", "diningtable", "fridge", "sinkbasin"],
  egg: ["fridge", "countertop", "diningtable", "garbagecan"],
  bread: ["countertop", "diningtable", "fridge"],
  lettuce: ["fridge", "countertop", "diningtable"],
  mug: ["coffeemachine", "countertop", "cabinet", "sinkbasin", "shelf"],
  cup: ["countertop", "cabinet", "diningtable", "shelf"],
  plate: ["cabinet", "countertop", "diningtable", "shelf"],
  pan: ["stoveburner", "countertop", "cabinet"],
  pot: ["stoveburner", "cabinet", "countertop"],
  knife: ["drawer", "countertop", "diningtable"],
  spatula: ["drawer", "countertop", "diningtable"],
  winebottle: ["cabinet", "countertop", "fridge", "shelf"],
  soapbar: ["countertop", "cabinet", "bathtubbasin", "sinkbasin", "toilet"],
  cloth: ["cabinet", "countertop", "drawer", "bathtubbasin", "towelholder"],
  spraybottle: ["cabinet", "toilet", "countertop", "shelf"],
  toiletpaper: ["toilet", "cabinet", "shelf", "drawer"],
  candle: ["shelf", "countertop", "cabinet", "toilet"],
  book: ["desk", "bed", "shelf", "sidetable", "coffeetable", "drawer"],
  cd: ["desk", "shelf", "drawer", "sidetable", "safe"],
  pen: ["desk", "drawer", "sidetable", "shelf"],
  pencil: ["desk", "drawer", "sidetable", "shelf"],
  alarmclock: ["desk", "sidetable", "shelf", "dresser"],
  cellphone: ["bed", "desk", "sidetable", "dresser", "drawer"],
  keychain: ["dresser", "drawer", "sidetable", "safe", "coffeetable"],
  creditcard: ["desk", "dresser", "drawer", "sidetable", "coffeetable"],
  pillow: ["bed", "sofa", "armchair"],
  remotecontrol: ["sofa", "coffeetable", "tvstand", "armchair", "sidetable"],
  statue: ["shelf", "coffeetable", "sidetable", "tvstand", "dresser"],
  vase: ["shelf", "coffeetable", "sidetable", "tvstand", "cabinet"],
  watch: ["dresser", "sidetable", "coffeetable", "drawer", "safe"],
  newspaper: ["sofa", "coffeetable", "armchair", "sidetable"],
  bowl: ["cabinet", "countertop", "diningtable", "shelf", "desk"],
};

/** One family of tasks: room, goal objects and goal receptacle kinds. */
export interface TaskFamily {
  room: RoomKind;
  objects: string[];
  targets: string[];
}

const KITCHEN_FOOD = ["apple", "potato", "tomato", "egg", "bread"];

/** The families each task type draws from (room first, then object and target). */
export const TASK_FAMILIES: Record<TaskType, TaskFamily[]> = {
  pick_and_place_simple: [
    {
      room: "kitchen",
      objects: ["mug", "plate", "knife", "winebottle", "spatula", "apple"],
      targets: ["countertop", "diningtable", "cabinet", "drawer", "shelf", "fridge"],
    },
    {
      room: "bathroom",
      objects: ["soapbar", "spraybottle", "toiletpaper", "candle", "cloth"],
      targets: ["toilet", "cabinet", "countertop", "shelf", "drawer"],
    },
    {
      room: "bedroom",
      objects: ["book", "cd", "pen", "cellphone", "keychain", "alarmclock"],
      targets: ["bed", "desk", "dresser", "shelf", "safe", "drawer"],
    },
    {
      room: "livingroom",
      objects: ["remotecontrol", "statue", "vase", "watch", "newspaper", "pillow"],
      targets: ["sofa", "coffeetable", "sidetable", "armchair", "cabinet", "tvstand"],
    },
  ],
  look_at_obj_in_light: [
    {
      room: "bedroom",
      objects: ["book", "cd", "pen", "pencil", "alarmclock", "cellphone", "creditcard", "keychain"],
      targets: ["desklamp"],
    },
    {
      room: "livingroom",
      objects: ["statue", "vase", "watch", "newspaper", "remotecontrol", "pillow", "bowl"],
      targets: ["floorlamp"],
    },
  ],
  pick_clean_then_place_in_recep: [
    {
      room: "kitchen",
      objects: ["mug", "plate", "cup", "pan", "knife", "spatula", "lettuce", "tomato", "apple"],
      targets: ["countertop", "diningtable", "cabinet", "fridge", "shelf", "drawer", "coffeemachine"],
    },
    {
      room: "bathroom",
      objects: ["soapbar", "cloth"],
      targets: ["toilet", "cabinet", "countertop", "bathtubbasin", "shelf"],
    },
  ],
  pick_heat_then_place_in_recep: [
    {
      room: "kitchen",
      objects: [...KITCHEN_FOOD, "mug", "cup", "plate"],
      targets: ["countertop", "diningtable", "fridge", "cabinet", "garbagecan", "coffeemachine"],
    },
  ],
  pick_cool_then_place_in_recep: [
    {
      room: "kitchen",
      objects: [...KITCHEN_FOOD, "lettuce", "mug", "cup", "pan", "winebottle"],
      targets: ["countertop", "diningtable", "cabinet", "microwave", "shelf", "garbagecan"],
    },
  ],
  pick_two_obj_and_place: [
    {
      room: "kitchen",
      objects: ["mug", "plate", "knife", "spatula", "apple", "potato"],
      targets: ["countertop", "diningtable", "cabinet", "drawer", "shelf", "fridge"],
    },
    {
      room: "bathroom",
      objects: ["soapbar", "spraybottle", "toiletpaper", "candle", "cloth"],
      targets: ["toilet", "cabinet", "countertop", "shelf", "drawer"],
    },
    {
      room: "bedroom",
      objects: ["book", "cd", "pen", "pencil", "cellphone", "keychain", "creditcard"],
      targets: ["bed", "desk", "dresser", "shelf", "safe", "drawer"],
    },
    {
      room: "livingroom",
      objects: ["remotecontrol", "statue", "vase", "watch", "newspaper", "pillow"],
      targets: ["sofa", "coffeetable", "sidetable", "armchair", "cabinet", "tvstand"],
    },
  ],
};

/** Where lamps stand: a desklamp on a desk, sidetable or dresser; a floorlamp beside a sofa, armchair or sidetable. */
export const LAMP_PLACES: Record<string, string[]> = {
  desklamp: ["desk", "sidetable", "dresser"],
  floorlamp: ["sidetable", "armchair", "sofa"],
};

/** The appliance that applies each treatment, and the state it gives. */
export const TREATMENTS: Record<Treatment, { appliance: string; adjective: string; past: string }> = {
  clean: { appliance: "sinkbasin", adjective: "clean", past: "cleaned" },
  heat: { appliance: "microwave", adjective: "hot", past: "heated" },
  cool: { appliance: "fridge", adjective: "cool", past: "cooled" },
};

/** The treatment a task type requires, if any. */
export function treatmentOf(type: TaskType): Treatment | null {
  if (type === "pick_clean_then_place_in_recep") return "clean";
  if (type === "pick_heat_then_place_in_recep") return "heat";
  if (type === "pick_cool_then_place_in_recep") return "cool";
  return null;
}

/** True for one of the six task type names. */
export function isTaskType(value: unknown): value is TaskType {
  return typeof value === "string" && (TASK_TYPES as readonly string[]).includes(value);
}
