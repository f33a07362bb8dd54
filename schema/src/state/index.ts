/**
 * Colyseus schema classes synchronised by the rooms. The browser decodes with these same
 * classes, so field names and order are a contract: add fields at the end, never rename.
 */
export { WorldState } from "./WorldState.js";
export { SeasonState } from "./SeasonState.js";
export { ChatMessageState } from "./ChatMessageState.js";
export {
  AllianceState,
  AllianceHeaderState,
  AllianceMemberState,
  OperationState,
  OperationParticipantState,
  DefenseRequestState,
  DefenseResponseState,
  AllianceBonusState,
  AllianceChannelState,
  LeadershipState,
  LEADERSHIP_VIEW_TAG,
} from "./AllianceState.js";
export { NewsTickerItem } from "./NewsTickerItem.js";
