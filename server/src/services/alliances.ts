import {
  ALLIANCE_BONUSES,
  ALLIANCE_INVITATION_LIFETIME_MS,
  ALLIANCE_APPLICATION_LIFETIME_MS,
  ALLIANCE_MAX_MEMBERS,
  ALLIANCE_MESSAGES,
  ALLIANCE_POINT_SOURCES,
  DEFAULT_ALLIANCE_REQUIREMENTS,
  alliancePermissions,
  bonusCooldownUntil,
  checkAllianceCapacity,
  checkAlliancePermission,
  checkBonusPurchase,
  checkDemote,
  checkKick,
  checkNotInAlliance,
  checkPromote,
  computeAllianceEffects,
  computeNextPurchase,
  computeRankChange,
  computeSuccessor,
  currentBonusLevel,
  findAllianceBonus,
  foldName,
  isLeaderRole,
  meetsRequirements,
  type AllianceEffects,
  type AllianceRole,
} from "@game/schema/rules";
import type {
  AllianceBonusesJson,
  AllianceJson,
  AllianceMemberJson,
  AllianceRankingRowJson,
  AllianceStatusJson,
  ApplicationJson,
  ApplicationsJson,
  CreateAllianceInput,
  InvitationJson,
  InvitationsJson,
  AllianceSettingsInput,
} from "@game/schema/api";
import type { ServiceContext } from "./context.js";
import { noCountry, ownCountryWith, type CountryOwner } from "./countries.js";
import { readTogether } from "../db/readBatch.js";
import { runCountriesAction, type ActionTransaction, type LockedCountry, type StepOutcome } from "./actions.js";
import { allianceTopic, countryTopic, WORLD_TOPIC, type AllianceLeaveReason } from "../events.js";
import { conflict, forbidden, isUniqueViolation, notFound } from "../errors.js";
import { findCountryByUserId, type CountryRow, type CountryRowPatch } from "../db/countries.js";
import { perDatabase, type Db, type DbClient } from "../db/pool.js";
import { SharedReading } from "../db/sharedReading.js";
import {
  allianceFlag,
  allianceLeaders,
  allianceMemberIds,
  allianceRequirements,
  applicationsBy,
  applicationsTo,
  countMembers,
  creditPoints,
  deleteMember,
  disbandAlliance,
  ensureAllianceRankSnapshot,
  findAlliance,
  findApplication,
  findInvitation,
  insertAlliance,
  insertApplication,
  insertInvitation,
  insertMember,
  insertPurchase,
  invitationsFor,
  invitationsOf,
  listMembers,
  listPurchases,
  lockAlliance,
  memberTenures,
  pointsSpent,
  purchasesOfCountries,
  rankedAlliances,
  recentLedger,
  setApplicationStatus,
  setInvitationStatus,
  setMemberRole,
  snapshotRanks,
  TECH_COLUMNS,
  toBonusPurchase,
  updateAllianceSettings as writeAllianceSettings,
  withdrawApplicationsOf,
  type AllianceAggregate,
  type AllianceRow,
  type ApplicationRow,
  type InvitationRow,
  type MemberRow,
} from "../db/alliances.js";
import { loadOperations, removeFromOpenOperations } from "../db/allianceWarfare.js";
import { ensure, refusal } from "./allianceErrors.js";
import { postAllianceSystemMessage } from "./allianceChat.js";
import { recordNews } from "./news.js";
import { peaceNews } from "./warNews.js";

/**
 * Alliances: one service function per action (create, leave, invite and answer, apply and
 * answer, kick, promote, demote, settings, buy a bonus), each one runCountriesAction over the
 * countries whose membership or role it reads or changes, with the alliance's row locked
 * after them. Membership is countries.alliance_id, written as a row patch with the member
 * row in the same transaction; after commit every change is published on the country's
 * topic (membershipChanged, for the world room's chat access) and the alliance's (for the
 * alliance room). Reads for the REST screens follow.
 */

/** The actor's country, or 404. */
export async function actorCountry(ctx: ServiceContext, userId: number): Promise<CountryRow> {
  const row = await findCountryByUserId(ctx.db, userId);
  if (!row) throw notFound("You have no country", "country/none");
  return row;
}

/** A locked country's alliance and role, read inside the transaction. */
export async function membershipIn(client: Db | DbClient, row: CountryRow): Promise<{ allianceId: number | null; role: AllianceRole | null }> {
  if (row.alliance_id === null) return { allianceId: null, role: null };
  return { allianceId: row.alliance_id, role: roleOf(row, await memberRowOf(client, row.id)) };
}

/** A country's member row, read by its id alone, so that it can travel with the country's own row (db/readBatch.ts). */
async function memberRowOf(db: Db | DbClient, countryId: number): Promise<MemberRole | undefined> {
  const { rows } = await db.query<MemberRole>("SELECT role, alliance_id FROM alliance_members WHERE country_id = $1", [countryId]);
  return rows[0];
}

interface MemberRole {
  role: AllianceRole;
  alliance_id: number;
}

/** The country's role in its alliance: none outside one; a plain member when its member row is missing or stale (an operator's tool). */
function roleOf(row: CountryRow, member: MemberRole | undefined): AllianceRole | null {
  if (row.alliance_id === null) return null;
  return member && member.alliance_id === row.alliance_id ? member.role : "member";
}

/** The live alliance the actor belongs to, locked, with the actor's role; 403 outside one. */
async function lockOwnAlliance(client: DbClient, row: CountryRow): Promise<{ alliance: AllianceRow; role: AllianceRole }> {
  const m = await membershipIn(client, row);
  if (m.allianceId === null) throw refusal({ code: "alliance/not_member", message: ALLIANCE_MESSAGES.notMember });
  const alliance = await lockAlliance(client, m.allianceId);
  if (!alliance) throw refusal({ code: "alliance/not_member", message: ALLIANCE_MESSAGES.notMember });
  return { alliance, role: m.role! };
}

function techLevels(row: CountryRow): number[] {
  return TECH_COLUMNS.map((column) => Number((row as unknown as Record<string, number>)[column] ?? 0));
}

const NOTHING = new Map();

/**
 * Joining an alliance makes peace with its members: every active war between the newcomer and
 * a member (either side declared it) ends at once, charged nothing more, and both sides and the
 * world are told (issue 30: a war went on, and was charged, after both sides joined the same
 * alliance). The war costs phase ends any that slipped past (docs/rules.md, "War declarations").
 */
async function endWarsWithAllies(tx: ActionTransaction, countryId: number, alliance: AllianceRow): Promise<void> {
  const { rows } = await tx.client.query<{ id: number; declarer_id: number; declarer_name: string; target_id: number; target_name: string }>(
    `WITH ended AS (
       UPDATE war_declarations w SET ended_at = $3, end_reason = 'declared_peace'
        WHERE w.ended_at IS NULL
          AND ((w.declarer_id = $1 AND w.target_id IN (SELECT id FROM countries WHERE alliance_id = $2))
            OR (w.target_id = $1 AND w.declarer_id IN (SELECT id FROM countries WHERE alliance_id = $2)))
        RETURNING w.id, w.declarer_id, w.target_id)
     SELECT e.id::int, e.declarer_id::int, d.name AS declarer_name, e.target_id::int, t.name AS target_name
       FROM ended e JOIN countries d ON d.id = e.declarer_id JOIN countries t ON t.id = e.target_id`,
    [countryId, alliance.id, tx.now],
  );
  const at = tx.now.getTime();
  for (const war of rows) {
    const body = `Both of you are in ${alliance.name} now: the war has ended.`;
    for (const [side, other] of [
      [war.declarer_id, war.target_name],
      [war.target_id, war.declarer_name],
    ] as const) {
      tx.emit(countryTopic(side), { type: "notice", countryId: side, notice: { id: `war-${war.id}-allied-${side}`, kind: "war_ended", severity: "info", title: `Peace with ${other}`, body, at, view: "war-room", refId: war.id } });
    }
    tx.emit(WORLD_TOPIC, { type: "warEnded", war: { declarationId: war.id, declarerId: war.declarer_id, declarerName: war.declarer_name, targetId: war.target_id, targetName: war.target_name, at }, reason: "declared_peace" });
    await recordNews(tx, peaceNews(war));
  }
}

/** What the step of a membership action gathers: row patches and the emitted events' helpers. */
class MembershipChanges {
  readonly patches = new Map<number, CountryRowPatch>();
  constructor(private readonly tx: ActionTransaction) {}

  /** `row` joins `alliance` as `role`: member row, alliance_id, its other applications withdrawn, a line in General. */
  async join(row: CountryRow, alliance: AllianceRow, role: AllianceRole): Promise<void> {
    await insertMember(this.tx.client, { countryId: row.id, allianceId: alliance.id, role, techLevels: techLevels(row), now: this.tx.now });
    this.patches.set(row.id, { alliance_id: alliance.id });
    await endWarsWithAllies(this.tx, row.id, alliance);
    for (const other of await withdrawApplicationsOf(this.tx.client, row.id, this.tx.now)) {
      if (other !== alliance.id) this.tx.emit(allianceTopic(other), { type: "leadershipQueueChanged", allianceId: other });
    }
    this.tx.emit(countryTopic(row.id), { type: "membershipChanged", countryId: row.id, allianceId: alliance.id, allianceRole: role });
    this.tx.emit(allianceTopic(alliance.id), { type: "memberJoined", allianceId: alliance.id, countryId: row.id });
    if (role !== "owner") {
      await postAllianceSystemMessage(this.tx, { allianceId: alliance.id, channel: "general", type: "system", content: `${row.name} joined the alliance`, allianceTag: alliance.tag });
      await recordNews(this.tx, {
        kind: "alliance_member_joined",
        allianceId: alliance.id,
        params: { alliance: { id: alliance.id, name: alliance.name }, member: { id: row.id, name: row.name } },
        participants: [{ id: row.id, name: row.name, type: "country", role: "member", allianceTag: alliance.tag }],
      });
    }
  }

  /**
   * `row` leaves `alliance` (left, kicked): its member row and open operation places go, its
   * alliance_id is cleared; an owner's seat passes to the successor, and the last member
   * leaving disbands the alliance.
   */
  async leave(row: CountryRow, alliance: AllianceRow, role: AllianceRole, reason: AllianceLeaveReason, by?: CountryRow): Promise<void> {
    const client = this.tx.client;
    const tenures = await memberTenures(client, alliance.id);
    await deleteMember(client, row.id);
    this.patches.set(row.id, { alliance_id: null });
    const operations = await removeFromOpenOperations(client, row.id, alliance.id);
    this.tx.emit(countryTopic(row.id), { type: "membershipChanged", countryId: row.id, allianceId: null, allianceRole: null });
    this.tx.emit(allianceTopic(alliance.id), { type: "memberLeft", allianceId: alliance.id, countryId: row.id, reason });
    if (role === "owner") {
      const successor = computeSuccessor(tenures, row.id);
      if (successor === null) {
        await disbandAlliance(client, alliance.id, this.tx.now);
        this.tx.emit(allianceTopic(alliance.id), { type: "allianceDisbanded", allianceId: alliance.id });
        await recordNews(this.tx, {
          kind: "alliance_disbanded",
          params: { alliance: { id: alliance.id, name: alliance.name, tag: alliance.tag } },
          participants: [{ id: alliance.id, name: alliance.name, type: "alliance", role: "disbanded", allianceTag: alliance.tag }],
        });
        return;
      }
      await setMemberRole(client, successor, alliance.id, "owner");
      this.tx.emit(countryTopic(successor), { type: "membershipChanged", countryId: successor, allianceId: alliance.id, allianceRole: "owner" });
      this.tx.emit(allianceTopic(alliance.id), { type: "memberRoleChanged", allianceId: alliance.id, countryId: successor, role: "owner" });
      this.tx.emit(
        countryTopic(successor),
        notice(`owner-${alliance.id}-${this.tx.now.getTime()}`, "alliance_owner", "success", "You lead the alliance now", `${row.name} left [${alliance.tag}] ${alliance.name}; you are its owner.`, this.tx.now),
      );
    }
    for (const operation of await loadOperations(client, { ids: operations })) {
      this.tx.emit(allianceTopic(alliance.id), { type: "operationChanged", allianceId: alliance.id, operation });
    }
    const verb = reason === "kicked" ? "was removed from" : "left";
    await postAllianceSystemMessage(this.tx, { allianceId: alliance.id, channel: "general", type: "system", content: `${row.name} ${verb} the alliance`, allianceTag: alliance.tag });
    const member = { id: row.id, name: row.name };
    const named = { id: alliance.id, name: alliance.name };
    if (reason === "kicked" && by) {
      await recordNews(this.tx, { kind: "alliance_member_kicked", allianceId: alliance.id, params: { alliance: named, member, by: { id: by.id, name: by.name } } });
      await recordNews(this.tx, { kind: "alliance_kicked", countryId: row.id, params: { alliance: named, by: { id: by.id, name: by.name } } });
    } else {
      await recordNews(this.tx, { kind: "alliance_member_left", allianceId: alliance.id, params: { alliance: named, member } });
    }
  }

  outcome<R>(result: R): StepOutcome<R> {
    return { next: NOTHING, patches: this.patches, result };
  }
}

/** A live notice for one player (the world room shows it as a card). */
export function notice(id: string, kind: string, severity: "info" | "success" | "warning" | "danger", title: string, body: string, at: Date, refId?: number) {
  return { type: "notice" as const, countryId: 0, notice: { id, kind, severity, title, body, at: at.getTime(), view: "alliances", ...(refId === undefined ? {} : { refId }) } };
}

export function noticeTo(tx: Pick<ActionTransaction, "emit">, countryId: number, n: ReturnType<typeof notice>): void {
  tx.emit(countryTopic(countryId), { ...n, countryId });
}

// --- actions --------------------------------------------------------------------------------

/** POST /alliance/create: the founder becomes its owner. Name and tag are unique among live alliances (409). */
export async function createAlliance(ctx: ServiceContext, userId: number, input: CreateAllianceInput): Promise<{ allianceId: number }> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.create",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      ensure(checkNotInAlliance(row.alliance_id));
      let alliance: AllianceRow;
      try {
        alliance = await insertAlliance(tx.client, {
          name: input.name,
          tag: input.tag,
          description: input.description,
          flag: input.flag,
          requirements: { ...DEFAULT_ALLIANCE_REQUIREMENTS, ...input.requirements },
          foundedBy: row.id,
        });
      } catch (err) {
        if (isUniqueViolation(err, "alliances_name_key")) throw conflict("An alliance with that name already exists", "alliance/name_taken");
        if (isUniqueViolation(err, "alliances_tag_key")) throw conflict("An alliance with that tag already exists", "alliance/tag_taken");
        throw err;
      }
      const changes = new MembershipChanges(tx);
      await changes.join(row, alliance, "owner");
      await postAllianceSystemMessage(tx, { allianceId: alliance.id, channel: "general", type: "announcement", content: `${row.name} founded [${alliance.tag}] ${alliance.name}`, allianceTag: alliance.tag });
      await recordNews(tx, {
        kind: "alliance_founded",
        params: { alliance: { id: alliance.id, name: alliance.name, tag: alliance.tag }, founder: { id: row.id, name: row.name } },
        participants: [
          { id: alliance.id, name: alliance.name, type: "alliance", role: "founded", allianceTag: alliance.tag },
          { id: row.id, name: row.name, type: "country", role: "founder", allianceTag: alliance.tag },
        ],
      });
      return changes.outcome({ allianceId: alliance.id });
    },
  });
  allianceLadderOf(ctx.db).forget(); // the new alliance is on this process's next list
  return result;
}

/** POST /alliance/leave: the owner's seat passes on (computeSuccessor); the last member disbands it. */
export async function leaveAlliance(ctx: ServiceContext, userId: number): Promise<{ allianceId: number; disbanded: boolean }> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.leave",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await lockOwnAlliance(tx.client, row);
      const { members } = await countMembers(tx.client, alliance.id);
      const changes = new MembershipChanges(tx);
      await changes.leave(row, alliance, role, "left");
      return changes.outcome({ allianceId: alliance.id, disbanded: members <= 1 });
    },
  });
  return result;
}

/** POST /alliance/invitations: leaders invite a country by name; pending for 3 days. */
export async function inviteToAlliance(ctx: ServiceContext, userId: number, input: { targetCountryName: string; message: string }): Promise<{ invitationId: number }> {
  const actor = await actorCountry(ctx, userId);
  // Looked up by the folded name, as names are unique: a lookalike spelling finds the country.
  const target = await ctx.db.query<{ id: number }>("SELECT country_id AS id FROM country_name_keys WHERE folded = $1", [foldName(input.targetCountryName)]);
  const targetId = target.rows[0]?.id;
  if (targetId === undefined) throw notFound(`No country named ${input.targetCountryName}`, "alliance/unknown_country");
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.invite",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id, targetId],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const targetRow = countries.get(targetId)!.row;
      const { alliance, role } = await lockOwnAlliance(tx.client, row);
      ensure(checkAlliancePermission(role, "canInvite"));
      if (targetRow.id === row.id || targetRow.alliance_id === alliance.id) throw conflict("That country is already in your alliance", "alliance/already_member");
      if (targetRow.alliance_id !== null) throw conflict("That country is already in an alliance", "alliance/target_in_alliance");
      ensure(checkAllianceCapacity((await countMembers(tx.client, alliance.id)).members));
      let invitationId: number;
      try {
        invitationId = await insertInvitation(tx.client, {
          allianceId: alliance.id,
          targetCountryId: targetId,
          invitedBy: row.id,
          invitedByName: row.name,
          message: input.message,
          expiresAt: new Date(tx.now.getTime() + ALLIANCE_INVITATION_LIFETIME_MS),
        });
      } catch (err) {
        if (isUniqueViolation(err, "alliance_invitations_one_pending")) throw conflict("That country already has a pending invitation from your alliance", "alliance/already_invited");
        throw err;
      }
      tx.emit(allianceTopic(alliance.id), { type: "leadershipQueueChanged", allianceId: alliance.id });
      noticeTo(
        tx,
        targetId,
        notice(`invitation-${invitationId}`, "alliance_invitation", "info", "Alliance invitation", `[${alliance.tag}] ${alliance.name} invites you to join${input.message ? `: "${input.message}"` : ""}`, tx.now, invitationId),
      );
      return { next: NOTHING, result: { invitationId } };
    },
  });
  return result;
}

/** POST /alliance/invitations/{id}/accept and /decline: only the invited country, while pending. */
export async function answerInvitation(ctx: ServiceContext, userId: number, invitationId: number, answer: "accept" | "decline"): Promise<{ allianceId: number }> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name: `alliance.invitation.${answer}`,
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const invitation = await findInvitation(tx.client, invitationId, true);
      if (!invitation || invitation.target_country_id !== row.id) throw notFound("Invitation not found", "alliance/invitation_not_found");
      if (invitation.status !== "pending" || invitation.expires_at <= tx.now) throw conflict("This invitation is no longer pending", "alliance/invitation_closed");
      if (answer === "decline") {
        await setInvitationStatus(tx.client, invitation.id, "declined", tx.now);
        tx.emit(allianceTopic(invitation.alliance_id), { type: "leadershipQueueChanged", allianceId: invitation.alliance_id });
        return { next: NOTHING, result: { allianceId: invitation.alliance_id } };
      }
      ensure(checkNotInAlliance(row.alliance_id));
      const alliance = await lockAlliance(tx.client, invitation.alliance_id);
      if (!alliance) throw conflict("That alliance no longer exists", "alliance/disbanded");
      ensure(checkAllianceCapacity((await countMembers(tx.client, alliance.id)).members));
      await setInvitationStatus(tx.client, invitation.id, "accepted", tx.now);
      const changes = new MembershipChanges(tx);
      await changes.join(row, alliance, "member");
      tx.emit(allianceTopic(alliance.id), { type: "leadershipQueueChanged", allianceId: alliance.id });
      return changes.outcome({ allianceId: alliance.id });
    },
  });
  return result;
}

/** POST /alliance/invitations/{id}/cancel: leaders of the inviting alliance (canCancelInvitations). */
export async function cancelInvitation(ctx: ServiceContext, userId: number, invitationId: number): Promise<{ invitationId: number }> {
  const actor = await actorCountry(ctx, userId);
  await runCountriesAction(ctx, {
    name: "alliance.invitation.cancel",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const { alliance, role } = await lockOwnAlliance(tx.client, countries.get(actor.id)!.row);
      const invitation = await findInvitation(tx.client, invitationId, true);
      if (!invitation || invitation.alliance_id !== alliance.id) throw notFound("Invitation not found", "alliance/invitation_not_found");
      ensure(checkAlliancePermission(role, "canCancelInvitations"));
      if (invitation.status !== "pending") throw conflict("This invitation is no longer pending", "alliance/invitation_closed");
      await setInvitationStatus(tx.client, invitation.id, "cancelled", tx.now);
      tx.emit(allianceTopic(alliance.id), { type: "leadershipQueueChanged", allianceId: alliance.id });
      return { next: NOTHING, result: null };
    },
  });
  return { invitationId };
}

/** POST /alliance/join: an application (spec: "join"), pending until a leader answers or 3 days pass. */
export async function applyToAlliance(ctx: ServiceContext, userId: number, input: { allianceId: number; message: string }): Promise<{ applicationId: number; meetRequirements: boolean }> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.apply",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      ensure(checkNotInAlliance(row.alliance_id));
      const alliance = await findAlliance(tx.client, input.allianceId);
      if (!alliance) throw notFound("Alliance not found", "alliance/not_found");
      if (!alliance.accept_applications) throw refusal({ code: "alliance/closed_applications", message: ALLIANCE_MESSAGES.closedApplications });
      let applicationId: number;
      try {
        applicationId = await insertApplication(tx.client, { allianceId: alliance.id, countryId: row.id, message: input.message, expiresAt: new Date(tx.now.getTime() + ALLIANCE_APPLICATION_LIFETIME_MS) });
      } catch (err) {
        if (isUniqueViolation(err, "alliance_applications_one_pending")) throw conflict("You already applied to this alliance", "alliance/already_applied");
        throw err;
      }
      tx.emit(allianceTopic(alliance.id), { type: "leadershipQueueChanged", allianceId: alliance.id });
      for (const leader of await allianceLeaders(tx.client, alliance.id)) {
        noticeTo(tx, leader, notice(`application-${applicationId}`, "alliance_application", "info", "New application", `${row.name} applied to join [${alliance.tag}]`, tx.now, applicationId));
      }
      return { next: NOTHING, result: { applicationId, meetRequirements: meetsRequirements(allianceRequirements(alliance), row) } };
    },
  });
  return result;
}

/**
 * POST /alliance/applications/{id}/accept and /reject: leaders (canManageApplications). An
 * application that does not meet the requirements may still be accepted (spec).
 */
export async function answerApplication(ctx: ServiceContext, userId: number, applicationId: number, answer: "accept" | "reject"): Promise<{ applicationId: number }> {
  const actor = await actorCountry(ctx, userId);
  const application = await findApplication(ctx.db, applicationId);
  if (!application) throw notFound("Application not found", "alliance/application_not_found");
  await runCountriesAction(ctx, {
    name: `alliance.application.${answer}`,
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id, application.applicant_country_id],
    async step(countries, tx) {
      const { alliance, role } = await lockOwnAlliance(tx.client, countries.get(actor.id)!.row);
      const current = await findApplication(tx.client, applicationId, true);
      if (!current || current.alliance_id !== alliance.id) throw notFound("Application not found", "alliance/application_not_found");
      ensure(checkAlliancePermission(role, "canManageApplications"));
      if (current.status !== "pending" || current.expires_at <= tx.now) throw conflict("This application is no longer pending", "alliance/application_closed");
      tx.emit(allianceTopic(alliance.id), { type: "leadershipQueueChanged", allianceId: alliance.id });
      const applicant = countries.get(current.applicant_country_id)!.row;
      if (answer === "reject") {
        await setApplicationStatus(tx.client, current.id, "rejected", actor.id, tx.now);
        noticeTo(tx, applicant.id, notice(`application-${current.id}-rejected`, "alliance_application", "warning", "Application rejected", `[${alliance.tag}] ${alliance.name} rejected your application`, tx.now));
        return { next: NOTHING, result: null };
      }
      ensure(checkNotInAlliance(applicant.alliance_id));
      ensure(checkAllianceCapacity((await countMembers(tx.client, alliance.id)).members));
      await setApplicationStatus(tx.client, current.id, "accepted", actor.id, tx.now);
      const changes = new MembershipChanges(tx);
      await changes.join(applicant, alliance, "member");
      noticeTo(tx, applicant.id, notice(`application-${current.id}-accepted`, "alliance_application", "success", "Application accepted", `Welcome to [${alliance.tag}] ${alliance.name}`, tx.now));
      return changes.outcome(null);
    },
  });
  return { applicationId };
}

/**
 * Runs an action of a leader on another member (kick, promote, demote): both countries locked,
 * the alliance locked, the target's role read under the lock.
 */
async function actOnMember<R>(
  ctx: ServiceContext,
  userId: number,
  targetCountryId: number,
  name: string,
  act: (input: { tx: ActionTransaction; actor: CountryRow; target: CountryRow; alliance: AllianceRow; role: AllianceRole; targetRole: AllianceRole | null; countries: ReadonlyMap<number, LockedCountry> }) => Promise<StepOutcome<R>>,
): Promise<R> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name,
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id, targetCountryId],
    notFoundMessage: "Country not found",
    async step(countries, tx) {
      const actorRow = countries.get(actor.id)!.row;
      const target = countries.get(targetCountryId)!.row;
      const { alliance, role } = await lockOwnAlliance(tx.client, actorRow);
      const targetMembership = await membershipIn(tx.client, target);
      const targetRole = targetMembership.allianceId === alliance.id ? targetMembership.role : null;
      return act({ tx, actor: actorRow, target, alliance, role, targetRole, countries });
    },
  });
  return result;
}

/** POST /alliance/kick: owner or manager; never oneself or the owner (spec). */
export async function kickMember(ctx: ServiceContext, userId: number, targetCountryId: number): Promise<{ countryId: number }> {
  return actOnMember(ctx, userId, targetCountryId, "alliance.kick", async ({ tx, actor, target, alliance, role, targetRole }) => {
    ensure(checkKick({ actorRole: role, actorCountryId: actor.id, targetCountryId: target.id, targetRole }));
    const changes = new MembershipChanges(tx);
    await changes.leave(target, alliance, targetRole!, "kicked", actor);
    noticeTo(tx, target.id, notice(`kicked-${alliance.id}-${tx.now.getTime()}`, "alliance_kicked", "warning", "Removed from the alliance", `${actor.name} removed you from [${alliance.tag}] ${alliance.name}`, tx.now));
    return changes.outcome({ countryId: target.id });
  });
}

/** POST /alliance/promote: the owner makes a member a manager (at most 4). */
export async function promoteMember(ctx: ServiceContext, userId: number, targetCountryId: number): Promise<{ countryId: number; role: AllianceRole }> {
  return actOnMember(ctx, userId, targetCountryId, "alliance.promote", async ({ tx, target, alliance, role, targetRole }) => {
    const { managers } = await countMembers(tx.client, alliance.id);
    ensure(checkPromote({ actorRole: role, targetRole, managerCount: managers }));
    return changeRole(tx, alliance, target, "manager");
  });
}

/** POST /alliance/demote: the owner makes a manager a member again. */
export async function demoteMember(ctx: ServiceContext, userId: number, targetCountryId: number): Promise<{ countryId: number; role: AllianceRole }> {
  return actOnMember(ctx, userId, targetCountryId, "alliance.demote", async ({ tx, target, alliance, role, targetRole }) => {
    ensure(checkDemote({ actorRole: role, targetRole }));
    return changeRole(tx, alliance, target, "member");
  });
}

async function changeRole(tx: ActionTransaction, alliance: AllianceRow, target: CountryRow, role: AllianceRole): Promise<StepOutcome<{ countryId: number; role: AllianceRole }>> {
  await setMemberRole(tx.client, target.id, alliance.id, role);
  tx.emit(countryTopic(target.id), { type: "membershipChanged", countryId: target.id, allianceId: alliance.id, allianceRole: role });
  tx.emit(allianceTopic(alliance.id), { type: "memberRoleChanged", allianceId: alliance.id, countryId: target.id, role });
  const promoted = role === "manager";
  noticeTo(
    tx,
    target.id,
    notice(`role-${alliance.id}-${target.id}-${tx.now.getTime()}`, "alliance_role", promoted ? "success" : "info", promoted ? "Promoted to manager" : "Now a member", `Your role in [${alliance.tag}] is ${role}`, tx.now),
  );
  return { next: NOTHING, result: { countryId: target.id, role } };
}

/** POST /alliance/settings: leaders change the description, flag and requirements. */
export async function updateAllianceSettings(ctx: ServiceContext, userId: number, input: AllianceSettingsInput): Promise<{ allianceId: number }> {
  const actor = await actorCountry(ctx, userId);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.settings",
    actor: { userId, countryId: actor.id },
    countryIds: [actor.id],
    async step(countries, tx) {
      const { alliance, role } = await lockOwnAlliance(tx.client, countries.get(actor.id)!.row);
      ensure(checkAlliancePermission(role, "canEditSettings"));
      await writeAllianceSettings(tx.client, alliance.id, {
        description: input.description,
        flag: input.flag,
        requirements: input.requirements ? { ...allianceRequirements(alliance), ...input.requirements } : undefined,
      });
      tx.emit(allianceTopic(alliance.id), { type: "allianceChanged", allianceId: alliance.id, reason: "settings" });
      return { next: NOTHING, result: { allianceId: alliance.id } };
    },
  });
  return result;
}

/**
 * POST /alliance/bonuses/purchase: the owner spends bonus points on the next level of a
 * permanent bonus or on a temporary one after its cooldown (spec section 5).
 */
export async function purchaseBonus(ctx: ServiceContext, userId: number, bonusId: string): Promise<{ bonusId: string; level: number; cost: number; expiresAt: string | null; points: number }> {
  const actor = await actorCountry(ctx, userId);
  // Every member's row is locked first, before the alliance row: the purchase touches every
  // member's row (migration 020's trigger, after the alliance row), while a member's trade
  // holds its own row and then credits the alliance (creditTrade). In that order the two
  // deadlocked in the simulated seasons (issue 27). A country that joins between this read and
  // the lock is touched after the alliance row, as before: Postgres finds such a deadlock and
  // the action runs again.
  const memberIds = actor.alliance_id === null ? [] : await allianceMemberIds(ctx.db, actor.alliance_id);
  const { result } = await runCountriesAction(ctx, {
    name: "alliance.bonus",
    actor: { userId, countryId: actor.id },
    countryIds: [...new Set([actor.id, ...memberIds])],
    async step(countries, tx) {
      const row = countries.get(actor.id)!.row;
      const { alliance, role } = await lockOwnAlliance(tx.client, row);
      const bonus = findAllianceBonus(bonusId);
      const purchases = (await listPurchases(tx.client, alliance.id)).map(toBonusPurchase);
      const now = tx.now.getTime();
      ensure(checkBonusPurchase({ role, bonus, purchases, points: alliance.bonus_points, now }));
      const next = computeNextPurchase(bonus!, purchases, now);
      await insertPurchase(tx.client, {
        allianceId: alliance.id,
        bonusId: bonus!.id,
        level: next.level,
        cost: next.cost,
        expiresAt: next.expiresAt === null ? null : new Date(next.expiresAt),
        by: row.id,
        byName: row.name,
        now: tx.now,
      });
      tx.emit(allianceTopic(alliance.id), { type: "allianceChanged", allianceId: alliance.id, reason: "bonus" });
      const label = bonus!.isPermanent ? `${bonus!.name} level ${next.level}` : bonus!.name;
      await postAllianceSystemMessage(tx, { allianceId: alliance.id, channel: "general", type: "achievement", content: `${row.name} bought ${label} for ${next.cost} bonus points`, allianceTag: alliance.tag });
      await recordNews(tx, { kind: "alliance_bonus_purchased", allianceId: alliance.id, params: { alliance: { id: alliance.id, name: alliance.name }, bonus: bonus!.name, level: next.level, cost: next.cost } });
      return {
        next: NOTHING,
        result: { bonusId: bonus!.id, level: next.level, cost: next.cost, expiresAt: next.expiresAt === null ? null : new Date(next.expiresAt).toISOString(), points: alliance.bonus_points - next.cost },
      };
    },
  });
  return result;
}

/**
 * Credits an alliance with points inside another action's transaction (a trade, a battle,
 * an operation): once per (source, ref). Other domains call this with their transaction.
 * @returns whether it was credited now
 */
export async function creditAlliancePoints(tx: Pick<ActionTransaction, "client" | "emit">, c: { allianceId: number; countryId: number | null; source: string; ref: string; points: number }): Promise<boolean> {
  const credited = await creditPoints(tx.client, c);
  if (credited) tx.emit(allianceTopic(c.allianceId), { type: "allianceChanged", allianceId: c.allianceId, reason: "points" });
  return credited;
}

// --- reads ----------------------------------------------------------------------------------

type RankedAlliance = AllianceRow & AllianceAggregate & { rank: number };

function toAllianceJson(row: RankedAlliance, isMember: boolean): AllianceJson {
  return {
    id: row.id,
    tag: row.tag,
    name: row.name,
    description: row.description,
    flag: allianceFlag(row),
    rank: row.rank,
    memberCount: row.member_count,
    maxMembers: ALLIANCE_MAX_MEMBERS,
    totalNetworth: row.total_networth,
    averageNetworth: row.member_count > 0 ? Math.floor(row.total_networth / row.member_count) : 0,
    bonusPoints: row.bonus_points,
    stats: {
      totalLand: row.total_land,
      totalMilitary: isMember ? row.total_military : null,
      warsWon: row.wars_won,
      warsLost: row.wars_lost,
      activeWars: row.active_wars,
    },
    requirements: allianceRequirements(row),
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Every live alliance ranked with its aggregates, read at most once per `rankingsMaxAgeMs` per
 * process (db/sharedReading.ts): the list is public and the same for everyone, and its
 * aggregates sum every member of every alliance (docs/architecture.md "The rank board").
 */
const allianceLadderOf = perDatabase((db) => new SharedReading(async () => (await rankedAlliances(db, { limit: null, offset: 0 })).rows));

/** GET /alliance/list?page=&limit=&search=: live alliances by rank, searchable by name or tag (case-insensitive). */
export async function listAlliances(ctx: ServiceContext, query: { page: number; limit: number; search: string }): Promise<{ data: AllianceJson[]; page: number; limit: number; total: number }> {
  const ladder = await allianceLadderOf(ctx.db).current(ctx.config.rankingsMaxAgeMs);
  const needle = query.search.toLowerCase();
  const found = needle === "" ? ladder : ladder.filter((r) => r.name.toLowerCase().includes(needle) || r.tag.toLowerCase().includes(needle));
  const offset = (query.page - 1) * query.limit;
  return { data: found.slice(offset, offset + query.limit).map((r) => toAllianceJson(r, false)), page: query.page, limit: query.limit, total: found.length };
}

/** One live alliance with aggregates, or undefined. */
export async function loadAllianceJson(db: Db | DbClient, allianceId: number, isMember: boolean): Promise<AllianceJson | undefined> {
  const { rows } = await rankedAlliances(db, { ids: [allianceId], limit: 1, offset: 0 });
  return rows[0] ? toAllianceJson(rows[0], isMember) : undefined;
}

function toMemberJson(m: MemberRow, withContributions: boolean): AllianceMemberJson {
  const p = alliancePermissions(m.role);
  return {
    id: String(m.country_id),
    countryId: m.country_id,
    countryName: m.country_name,
    playerName: m.player_name ?? "",
    governmentType: m.government_type,
    role: m.role,
    networth: m.networth,
    landAcres: m.land,
    joinedAt: m.joined_at.toISOString(),
    lastActive: m.last_active.toISOString(),
    isOnline: m.is_online,
    contributions: withContributions ? { bonusPoints: m.points_contributed, militarySupport: m.military_support, resourcesShared: m.resources_shared } : { bonusPoints: 0, militarySupport: 0, resourcesShared: 0 },
    permissions: { canInvite: p.canInvite, canKick: p.canKick, canManageBonuses: p.canManageBonuses, canViewFinances: p.canViewFinances },
  };
}

/** GET /alliance/{id}: the alliance and its members (public numbers; contributions only for its members). */
export async function getAlliance(ctx: ServiceContext, userId: number, allianceId: number): Promise<{ data: AllianceJson; members: AllianceMemberJson[] }> {
  const own = await findCountryByUserId(ctx.db, userId);
  const isMember = own?.alliance_id === allianceId;
  const alliance = await loadAllianceJson(ctx.db, allianceId, isMember);
  if (!alliance) throw notFound("Alliance not found", "alliance/not_found");
  const members = (await listMembers(ctx.db, allianceId)).map((m) => toMemberJson(m, isMember));
  return { data: alliance, members };
}

/** GET /alliance/status/{countryId}: the caller's alliance, role, permissions, members, finances (leaders). */
export async function allianceStatus(ctx: ServiceContext, owner: CountryOwner, countryId: number): Promise<AllianceStatusJson> {
  // Two round trips, each one connection for one batch of reads (db/readBatch.ts): the row with
  // the member row, then what the alliance screen shows. The finances (three small reads) go in
  // the second batch for every member and are shown only to a role that sees them: cheaper than
  // a third round trip.
  const {
    country,
    values: [member],
  } = await ownCountryWith(ctx, owner, (db, id) => [memberRowOf(db, id)] as const, { countryId });
  const role = roleOf(country, member);
  const permissions = alliancePermissions(role);
  const allianceId = country.alliance_id;
  const none = () => ({ alliance: null, role: null, permissions: alliancePermissions(null), members: [], finances: null, effects: computeAllianceEffects([], ctx.clock.now()) });
  if (allianceId === null) return none();
  const [alliance, members, purchases, ledger, spent, row] = await readTogether(
    ctx.db,
    (db) => [loadAllianceJson(db, allianceId, true), listMembers(db, allianceId), listPurchases(db, allianceId), recentLedger(db, allianceId), pointsSpent(db, allianceId), findAlliance(db, allianceId)] as const,
  );
  if (!alliance) return none();
  let finances: AllianceStatusJson["finances"] = null;
  if (permissions.canViewFinances) {
    finances = {
      pointsEarned: row?.points_earned ?? 0,
      pointsSpent: spent,
      bonusPoints: alliance.bonusPoints,
      recent: ledger.map((l) => ({ source: l.source, countryName: l.country_name ?? "", points: l.points, at: l.created_at.toISOString() })),
    };
  }
  return {
    alliance,
    role,
    permissions,
    members: members.map((m) => toMemberJson(m, true)),
    finances,
    effects: computeAllianceEffects(purchases.map(toBonusPurchase), ctx.clock.now()),
  };
}

function toInvitationJson(i: InvitationRow): InvitationJson {
  return {
    id: i.id,
    allianceId: i.alliance_id,
    allianceName: i.alliance_name,
    allianceTag: i.alliance_tag,
    targetCountryId: i.target_country_id,
    targetCountryName: i.target_country_name,
    invitedBy: i.invited_by_name,
    invitedById: i.invited_by,
    sentAt: i.sent_at.toISOString(),
    expiresAt: i.expires_at.toISOString(),
    message: i.message,
    status: i.status,
  };
}

/** GET /alliance/invitations: pending ones to the caller and, for leaders, those their alliance sent. */
export async function listInvitations(ctx: ServiceContext, userId: number): Promise<InvitationsJson> {
  const own = await actorCountry(ctx, userId);
  const role = (await membershipIn(ctx.db, own)).role;
  const [received, sent] = await Promise.all([invitationsFor(ctx.db, own.id), own.alliance_id !== null && isLeaderRole(role) ? invitationsOf(ctx.db, own.alliance_id) : Promise.resolve([])]);
  return { received: received.map(toInvitationJson), sent: sent.map(toInvitationJson) };
}

function toApplicationJson(a: ApplicationRow): ApplicationJson {
  return {
    id: a.id,
    allianceId: a.alliance_id,
    allianceName: a.alliance_name,
    applicantId: a.applicant_country_id,
    applicantName: a.applicant_name,
    applicantNetworth: a.applicant_networth,
    applicantLand: a.applicant_land,
    applicantGovernment: a.applicant_government,
    appliedAt: a.applied_at.toISOString(),
    expiresAt: a.expires_at.toISOString(),
    message: a.message,
    status: a.status,
    meetRequirements: meetsRequirements({ minNetworth: a.min_networth, minLand: a.min_land, acceptApplications: a.accept_applications }, { networth: a.applicant_networth, land: a.applicant_land }),
  };
}

/** GET /alliance/applications: the alliance's pending ones (leaders only) and the caller's own. */
export async function listApplications(ctx: ServiceContext, owner: CountryOwner): Promise<ApplicationsJson> {
  // One round trip for the row, the member row and the country's own applications; a second
  // one only for a role that sees its alliance's (db/readBatch.ts).
  const {
    country: own,
    values: [member, mine],
  } = await ownCountryWith(ctx, owner, (db, id) => [memberRowOf(db, id), applicationsBy(db, id)] as const, { refuse: noCountry });
  const canSee = own.alliance_id !== null && alliancePermissions(roleOf(own, member)).canManageApplications;
  const received = canSee ? await applicationsTo(ctx.db, own.alliance_id!) : [];
  return { received: received.map(toApplicationJson), mine: mine.map(toApplicationJson) };
}

/** GET /alliance/bonuses: the catalogue with the alliance's levels, costs, cooldowns and points. */
export async function allianceBonuses(ctx: ServiceContext, userId: number): Promise<AllianceBonusesJson> {
  const own = await actorCountry(ctx, userId);
  if (own.alliance_id === null) throw forbidden(ALLIANCE_MESSAGES.notMember, "alliance/not_member");
  const alliance = await findAlliance(ctx.db, own.alliance_id);
  if (!alliance) throw forbidden(ALLIANCE_MESSAGES.notMember, "alliance/not_member");
  const rows = await listPurchases(ctx.db, alliance.id);
  const purchases = rows.map(toBonusPurchase);
  const now = ctx.clock.now();
  return {
    points: alliance.bonus_points,
    bonuses: ALLIANCE_BONUSES.map((b) => {
      const level = currentBonusLevel(b, purchases, now);
      const running = b.isPermanent ? undefined : purchases.filter((p) => p.bonusId === b.id && (p.expiresAt ?? 0) > now).sort((x, y) => y.expiresAt! - x.expiresAt!)[0];
      const cooldownUntil = bonusCooldownUntil(b, purchases);
      return {
        id: b.id,
        name: b.name,
        description: b.description,
        category: b.category,
        baseCost: b.baseCost,
        maxLevel: b.maxLevel,
        currentLevel: level,
        costIncrease: b.costIncreasePct,
        nextCost: b.isPermanent && level >= b.maxLevel ? null : computeNextPurchase(b, purchases, now).cost,
        effectsPerLevel: b.effectsPerLevel,
        isPermanent: b.isPermanent,
        duration: b.durationHours,
        cooldown: b.cooldownHours,
        expiresAt: running?.expiresAt ? new Date(running.expiresAt).toISOString() : null,
        cooldownUntil: cooldownUntil > now ? new Date(cooldownUntil).toISOString() : null,
      };
    }),
    purchases: rows.map((r) => ({
      id: r.id,
      bonusId: r.bonus_id,
      level: r.level,
      purchasedAt: r.purchased_at.toISOString(),
      expiresAt: r.expires_at?.toISOString() ?? null,
      purchasedBy: r.purchased_by_name,
      isActive: r.expires_at === null || r.expires_at.getTime() > now,
    })),
    earning: ALLIANCE_POINT_SOURCES,
    effects: computeAllianceEffects(purchases, now),
  };
}

let allianceSnapshotDay = "";

/** GET /rankings/alliances?limit=: the spec's alliance ranking rows, with change since today's snapshot. */
export async function allianceRankings(ctx: ServiceContext, limit: number): Promise<AllianceRankingRowJson[]> {
  const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
  if (allianceSnapshotDay !== today) {
    await ensureAllianceRankSnapshot(ctx.db);
    allianceSnapshotDay = today;
  }
  const { rows } = await rankedAlliances(ctx.db, { limit, offset: 0 });
  const before = await snapshotRanks(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    rank: r.rank,
    allianceId: r.id,
    allianceName: r.name,
    allianceTag: r.tag,
    memberCount: r.member_count,
    warsWon: r.wars_won,
    totalNetworth: r.total_networth,
    averageNetworth: r.member_count > 0 ? Math.floor(r.total_networth / r.member_count) : 0,
    bonusPoints: r.bonus_points,
    ...computeRankChange(before.get(r.id) ?? null, r.rank),
  }));
}

/**
 * The alliance bonus effects in force for each country (countries without an alliance get
 * none): what combat, the market, research and espionage read.
 */
export async function allianceEffectsOf(db: Db | DbClient, countryIds: number[], now: number): Promise<Map<number, AllianceEffects>> {
  const purchases = await purchasesOfCountries(db, countryIds);
  return new Map(countryIds.map((id) => [id, computeAllianceEffects(purchases.get(id) ?? [], now)]));
}
