import { routes } from "@game/schema/routes";
import { transactionsCsvFileName } from "@game/schema/rules";
import { buyListing, cancelListing, controlOrder, createListing, createStandingOrder, exportHistoryCsv, getAnalytics, getHistory, getListings, getOrderBook, getOwnOrders, getStore, storeTrade } from "../services/market.js";
import type { ServiceContext } from "../services/context.js";
import { authorizeCountry, authorizeCountryId } from "./handler.js";
import { Download, type ApiPipeline } from "./pipeline.js";

/**
 * The markets (spec document 3: public market, government store, standing orders, history,
 * analytics). Routes only translate: the pipeline parsed the request with the catalogue's
 * schemas; check the country is the caller's own, call the service.
 */
export function marketRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  // --- public market ----------------------------------------------------------------------

  api.handle(routes.marketListings, async (call) => {
    // the viewer's own listings are flagged: its country comes with the token, no query
    return { data: await getListings(ctx, call.claims!.countryId, call.query.itemType, call.query.limit) };
  });

  api.handle(routes.createListing, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.body.countryId);
    return createListing(ctx, claims.userId, call.body);
  });

  // A hot route: players buy many times a minute.
  api.handle(routes.buyListing, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.body.countryId);
    return buyListing(ctx, claims.userId, call.params.id, call.body);
  });

  api.handle(routes.cancelListing, async (call) => cancelListing(ctx, call.claims!.userId, call.params.id, call.body.countryId));

  // --- government store -------------------------------------------------------------------

  api.handle(routes.store, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return { data: await getStore(ctx, { userId: claims.userId, countryId: call.params.countryId }) };
  });

  for (const [entry, side] of [
    [routes.storeBuy, "buy"],
    [routes.storeSell, "sell"],
  ] as const) {
    api.handle(entry, async (call) => {
      const claims = await authorizeCountryId(ctx, call, call.body.countryId);
      return storeTrade(ctx, claims.userId, side, call.body);
    });
  }

  // --- standing orders --------------------------------------------------------------------

  api.handle(routes.orderBook, async (call) => ({ data: await getOrderBook(ctx, call.query.itemType, call.query.limit) }));

  api.handle(routes.ownStandingOrders, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return { data: await getOwnOrders(ctx, { userId: claims.userId, countryId: call.params.countryId }) };
  });

  api.handle(routes.createStandingOrder, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.body.countryId);
    return createStandingOrder(ctx, claims.userId, call.body);
  });

  api.handle(routes.controlStandingOrder, async (call) => controlOrder(ctx, call.claims!.userId, call.params.id, call.params.control, call.body.countryId));

  // --- history and analytics --------------------------------------------------------------

  api.handle(routes.transactions, async (call) => {
    await authorizeCountry(ctx, call, call.params.countryId);
    return getHistory(ctx, call.params.countryId, call.query);
  });

  api.handle(routes.transactionsCsv, async (call) => {
    await authorizeCountry(ctx, call, call.params.countryId);
    const csv = await exportHistoryCsv(ctx, call.params.countryId, call.query);
    return new Download("text/csv; charset=utf-8", csv, { "Content-Disposition": `attachment; filename="${transactionsCsvFileName(call.query.period)}"` });
  });

  api.handle(routes.marketAnalytics, async (call) => ({ data: await getAnalytics(ctx, call.params.itemType) }));
}
