import { Router } from "express";
import { z } from "zod";
import {
  MARKET_FALLBACK,
  analyticsParamsSchema,
  buyListingRequestSchema,
  createListingRequestSchema,
  createStandingOrderRequestSchema,
  idParamSchema,
  listingsQuerySchema,
  orderBookQuerySchema,
  ownRecordRequestSchema,
  storeTradeRequestSchema,
  transactionsQuerySchema,
} from "@game/schema/api";
import { transactionsCsvFileName } from "@game/schema/rules";
import { countryOfUser } from "../services/countries.js";
import {
  buyListing,
  cancelListing,
  controlOrder,
  createListing,
  createStandingOrder,
  exportHistoryCsv,
  getAnalytics,
  getHistory,
  getListings,
  getOrderBook,
  getOwnOrders,
  getStore,
  storeTrade,
} from "../services/market.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, authorizeCountry, parse, route } from "./handler.js";
import type { DirectRoutes } from "./directRoutes.js";

const countryParams = z.object({ countryId: idParamSchema });
const idParams = z.object({ id: idParamSchema });
const controlParams = z.object({
  id: idParamSchema,
  control: z.enum(["pause", "activate", "cancel"], { error: "Unknown standing order action" }),
});

/**
 * The markets (spec document 3: public market, government store, standing orders, history,
 * analytics). Routes only translate: parse with the shared zod schema, check the country is
 * the caller's own, call the service.
 */
export function marketRoutes(ctx: ServiceContext, direct: DirectRoutes): Router {
  const router = Router();
  const F = MARKET_FALLBACK;

  // --- public market ----------------------------------------------------------------------

  router.get(
    "/market/listings",
    route(F.listings, async (req) => {
      const query = parse(listingsQuerySchema, req.query);
      const claims = await authenticate(ctx, req);
      const viewer = await countryOfUser(ctx, claims.userId);
      return { data: await getListings(ctx, viewer?.id ?? null, query.itemType, query.limit) };
    }),
  );

  router.post(
    "/market/listings",
    route(F.createListing, async (req) => {
      const body = parse(createListingRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      return createListing(ctx, claims.userId, body);
    }),
  );

  // On the direct path: players buy many times a minute.
  direct.post(router, "/market/listings/:id/buy", F.buyListing, async (call) => {
    const { id } = parse(idParams, call.params);
    const body = parse(buyListingRequestSchema, call.body);
    const { claims } = await authorizeCountry(ctx, call, body.countryId);
    return buyListing(ctx, claims.userId, id, body);
  });

  router.delete(
    "/market/listings/:id",
    route(F.cancelListing, async (req) => {
      const { id } = parse(idParams, req.params);
      const body = parse(ownRecordRequestSchema, req.body);
      const claims = await authenticate(ctx, req);
      return cancelListing(ctx, claims.userId, id, body.countryId);
    }),
  );

  // --- government store -------------------------------------------------------------------

  router.get(
    "/market/store/:countryId",
    route(F.store, async (req) => {
      const { countryId } = parse(countryParams, req.params);
      await authorizeCountry(ctx, req, countryId);
      return { data: await getStore(ctx, countryId) };
    }),
  );

  for (const side of ["buy", "sell"] as const) {
    router.post(
      `/market/store/${side}`,
      route(side === "buy" ? F.storeBuy : F.storeSell, async (req) => {
        const body = parse(storeTradeRequestSchema, req.body);
        const { claims } = await authorizeCountry(ctx, req, body.countryId);
        return storeTrade(ctx, claims.userId, side, body);
      }),
    );
  }

  // --- standing orders --------------------------------------------------------------------

  router.get(
    "/market/standing-orders",
    route(F.standingOrders, async (req) => {
      const query = parse(orderBookQuerySchema, req.query);
      await authenticate(ctx, req);
      return { data: await getOrderBook(ctx, query.itemType, query.limit) };
    }),
  );

  router.get(
    "/market/standing-orders/:countryId",
    route(F.standingOrders, async (req) => {
      const { countryId } = parse(countryParams, req.params);
      await authorizeCountry(ctx, req, countryId);
      return { data: await getOwnOrders(ctx, countryId) };
    }),
  );

  router.post(
    "/market/standing-orders",
    route(F.createOrder, async (req) => {
      const body = parse(createStandingOrderRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      return createStandingOrder(ctx, claims.userId, body);
    }),
  );

  router.post(
    "/market/standing-orders/:id/:control",
    route(F.controlOrder, async (req) => {
      const { id, control } = parse(controlParams, req.params);
      const body = parse(ownRecordRequestSchema, req.body);
      const claims = await authenticate(ctx, req);
      return controlOrder(ctx, claims.userId, id, control, body.countryId);
    }),
  );

  // --- history and analytics --------------------------------------------------------------

  router.get(
    "/market/transactions/:countryId",
    route(F.transactions, async (req) => {
      const { countryId } = parse(countryParams, req.params);
      const filters = parse(transactionsQuerySchema, req.query);
      await authorizeCountry(ctx, req, countryId);
      return getHistory(ctx, countryId, filters);
    }),
  );

  router.get(
    "/market/transactions/:countryId/export.csv",
    route(F.export, async (req, res) => {
      const { countryId } = parse(countryParams, req.params);
      const filters = parse(transactionsQuerySchema, req.query);
      await authorizeCountry(ctx, req, countryId);
      const csv = await exportHistoryCsv(ctx, countryId, filters);
      res.attachment(transactionsCsvFileName(filters.period)).type("text/csv; charset=utf-8").send(csv);
    }),
  );

  router.get(
    "/market/analytics/:itemType",
    route(F.analytics, async (req) => {
      const { itemType } = parse(analyticsParamsSchema, req.params);
      await authenticate(ctx, req);
      return { data: await getAnalytics(ctx, itemType) };
    }),
  );

  return router;
}
