/*
 * storekeeper_sdk.h: the C ABI of StoreKeeper's client SDK (libStoreKeeperSDK).
 *
 * A game engine (Unity, Cocos, Unreal, or any C or C++ host) reaches StoreKeeper's purchase
 * pipeline through these seven functions. JSON text crosses the boundary both ways: the
 * game sends a call (a method name and a JSON object of parameters) and later picks up its
 * answer, and updates nobody asked for, as events it polls on its own thread.
 *
 * Every promise is the pipeline's (PurchaseSDK): an order is journaled before each side
 * effect, a paid transaction is reported to the server until it answers, and it is finished
 * with the store only after the server delivered it. This layer adds none of its own.
 *
 * THREADING
 *   Any thread may call any function, at any time, concurrently. The library never calls
 *   into the host: no callbacks, no signals. Work runs on the library's own threads; its
 *   answers wait in a bounded queue per client until the game polls them (sk_poll, or
 *   sk_wait, which blocks the calling thread only). An engine drains the queue once a frame
 *   on its main thread.
 *   On Linux, sk_poll, sk_wait and sk_close called on the process's main thread also run the
 *   main dispatch queue's due work: StoreKit 1 ("storekit1") tells its observers there, as
 *   Apple's does on the main run loop. A host that never calls them on its main thread must
 *   run the main run loop (or dispatch_main) itself, or "storekit1" purchases never settle.
 *
 * OWNERSHIP
 *   Every char * the library returns (events from sk_poll and sk_wait, the error of sk_open)
 *   belongs to the caller and is freed with sk_free, once. sk_version's string is static:
 *   never free it. Strings the caller passes in are only read during the call.
 *
 * BAD INPUT
 *   Nothing a caller passes crashes the library:
 *   - a NULL, unknown or closed client: sk_call answers 0, sk_poll and sk_wait NULL,
 *     sk_close nothing;
 *   - sk_open: a NULL, non-UTF-8 or invalid config gives NULL and an error (below);
 *   - sk_call with a NULL method (invalid_argument), a method or params that are not UTF-8
 *     (invalid_utf8), params that are not a JSON object (invalid_json), an unknown method
 *     (unknown_method), missing or mistyped fields (invalid_params): the call still gets an
 *     id and its answer is an error event with that code.
 *   Strings must be NUL-terminated.
 *
 * EVENTS
 *   Each event is one JSON object, UTF-8, NUL-terminated:
 *   - a call's answer:  {"id": N, "result": {...}}
 *   - a call's error:   {"id": N, "error": {"code": "...", "message": "..."}}
 *   - an update:        {"event": "...", ...}
 *   Dates are ISO 8601 strings (UTC). Keys not listed below may be added in later versions:
 *   ignore the ones you do not know.
 *
 *   Updates:
 *   - {"event": "purchase", "purchase": PURCHASE}: a purchase settled that no sk_call is
 *     answering: delivered at start from a previous launch's journal, an Ask to Buy
 *     approved (a purchase first answered "pending"), a promoted purchase (bought in the App
 *     Store, held until a player signed in), a transaction the store listed that no order
 *     knew (origin "store"), one a restore carried to its finish. Each settlement of an order
 *     comes once: either as the answer of its purchase call or as this event.
 *   - {"event": "entitlementsChanged", "entitlements": ENTITLEMENTS}: the player's
 *     entitlements the client knows changed, e.g. a level pack delivered or restored, a
 *     subscription renewed or expired. The client knows them from the cache beside the
 *     journal (at signIn and start) and from each answer of the server it reads: the
 *     "entitlements" and "restore" calls (the event comes before their answer) and the
 *     refresh after every delivery (after the "purchase" answer or event, usually; do not
 *     rely on the order). Only a server answer (isCached false) that differs from what the
 *     client knew of that player is told; nothing known counts as no entitlement.
 *   - {"event": "eventsDropped", "count": N}: N updates were dropped because the queue was
 *     full (call answers are never dropped: see sk_call). It is queued by the first poll
 *     that makes room. Nothing is lost on the server or in the journal; ask
 *     pendingDeliveries or entitlements again.
 *
 *   PURCHASE (the result of "purchase", and the payload of the "purchase" event):
 *     {"status": "delivered" | "pending" | "cancelled" | "failed",
 *      "reason": "..."            (only with "failed": why, e.g. the server's code),
 *      "transactionId": "..."     (Apple's transaction, once charged),
 *      "orderId": "..."           (the server's order),
 *      "purchase": RECORD}
 *     delivered: the server granted the goods (RECORD.delivery) and the transaction is
 *     finished. pending: Ask to Buy or the bank; a "purchase" event follows when the store
 *     decides. cancelled: nothing was charged. failed: refused for good.
 *
 *   RECORD (one order of the journal):
 *     {"id", "playerId", "productId", "quantity", "origin": "game" | "promoted" | "store" |
 *      "restore", "state": "created" | "purchasing" | "purchased" | "reported" | "delivered"
 *      | "finished" | "pending" | "failed" | "cancelled", "failureReason", "orderId",
 *      "transactionId", "delivery": {"status": "delivered" | "already_delivered",
 *      "transactionId", "orderId", "grants": {item: amount}, "balances": {item: amount},
 *      "flags": [...]}, "transactionFinished": bool, "createdAt", "updatedAt"}
 *
 * ERROR CODES (error.code of an error event, or of sk_open's error)
 *   invalid_argument     a NULL where a string is needed
 *   invalid_utf8         a string that is not UTF-8
 *   invalid_json         params_json is not a JSON object
 *   invalid_config       sk_open: config_json is not a JSON object with the fields below
 *   invalid_params       a field is missing or has the wrong type (the message names it)
 *   unknown_method       no such method
 *   store_unavailable    sk_open: the store asked for cannot be used here; on Linux,
 *                        "storekit2" and "storekit1" without the STOREKEEPER_STOREKIT_*
 *                        variables (see sk_open; the message names the one at fault)
 *   data_directory       sk_open: the data directory cannot be created
 *   not_running          call "start" first, once; or the client is closing
 *   no_player_signed_in  "purchase" before "signIn"
 *   store_error          the store failed (products, purchase, restore)
 *   server_unreachable   the purchase server did not answer (offline, timed out, 5xx):
 *                        "restore" and "entitlements" answer it after their retries; call
 *                        again later
 *   server_refused       the purchase server refused the call for good; the message starts
 *                        with its stable reason
 *   journal_error        the journal could not be written (disk full, permissions)
 *   internal             anything else; the message says what
 *   A "purchase" waiting for the server never fails for that: it retries until the server
 *   answers (or the client closes; the journal resumes it at the next "start").
 */
#ifndef STOREKEEPER_SDK_H
#define STOREKEEPER_SDK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A client: one purchase pipeline, its journal and its event queue. Opaque. */
typedef struct sk_client sk_client;

/* sk_call's answers that are not call ids. */
#define SK_CALL_NO_CLIENT 0    /* the client is NULL, unknown or closed */
#define SK_CALL_QUEUE_FULL -1  /* the event queue is full: poll, then call again */

/*
 * The ABI's version, "MAJOR.MINOR.PATCH" (this header: "1.0.0"). Static: never freed.
 */
const char *sk_version(void);

/*
 * Opens a client. config_json is a JSON object:
 *   "serverURL"       string, required: the game's purchase server, e.g.
 *                     "https://iap.example.com"
 *   "dataDirectory"   string, required: where the journal (purchases.journal) and the
 *                     entitlement cache live; created if missing. Keep it for the life of
 *                     the install: it is what lets a purchase survive a crash. One open
 *                     client per directory.
 *   "store"           "storekit2" (the default): StoreKit 2 (Product, Transaction;
 *                     StoreKit 1 below iOS 15 and macOS 12); "storekit1": StoreKit 1
 *                     (SKPaymentQueue, the app receipt); "emulator": the StoreKeeper
 *                     emulator's device API, for tests; "play_emulator": the emulator's
 *                     Google Play side (Play Billing's purchases, reported as googlePlay;
 *                     the server acknowledges them), for tests and Linux simulations.
 *                     On Linux, StoreKit is StoreKeeper's StoreKit for Linux over the
 *                     emulator, configured by the process's environment, which must be set
 *                     before sk_open (else store_unavailable) and stay set:
 *                     STOREKEEPER_STOREKIT_URL (the emulator's root URL, e.g. that of
 *                     `storekeeper serve --dev`), STOREKEEPER_STOREKIT_DEVICE (the emulated
 *                     device's id) and STOREKEEPER_STOREKIT_DATA (the device's local
 *                     directory: app receipt, pinned root). One device per process.
 *   "emulatorURL"     string, with "emulator" or "play_emulator": the StoreKeeper
 *                     emulator's base URL
 *                     (`storekeeper serve --dev` or `storekeeper emulator`)
 *   "deviceId"        string, with "emulator" or "play_emulator": the emulated phone
 *   "eventQueueCapacity"        integer, default 256 (at least 2): events waiting at most
 *   "retryInitialMilliseconds"  integer, default 500: the first wait before retrying the
 *                               server
 *   "retryMaximumMilliseconds"  integer, default 60000: the longest wait
 * On success returns the client and sets *error_json to NULL. On failure returns NULL and,
 * when error_json is not NULL, sets *error_json to {"code": "...", "message": "..."} (free
 * it with sk_free). The client does nothing until its first call: call "start" at launch.
 */
sk_client *sk_open(const char *config_json, char **error_json);

/*
 * Starts an asynchronous call of `method` with `params_json` (a JSON object; NULL reads as
 * {}). Returns its id (> 0, increasing per client); its answer comes as an event with that
 * id. Returns SK_CALL_NO_CLIENT (0) for a NULL or closed client and SK_CALL_QUEUE_FULL (-1)
 * when the queue holds eventQueueCapacity events and answers to come: every call reserves
 * its answer's place, so answers are never dropped. Every other problem (see BAD INPUT) is
 * an error event under the returned id.
 *
 * Methods, their params and their result:
 *   "signIn"    {"playerId": string, "token": string}  -> {"playerId": string}
 *               The player now signed in and their bearer token for the purchase server
 *               (kept in memory only: sign the player in again after each sk_open).
 *               Promoted purchases held for want of a player go ahead for them.
 *   "signOut"   {} -> {}
 *               Orders already made still go to the players who made them.
 *   "start"     {} -> {"journalRecords": n, "journalDamage": n, "pendingDeliveries": n}
 *               Loads the journal, resumes every unsettled order and the store's
 *               unfinished transactions (their results come as "purchase" events), and
 *               starts following the store. Once per client (again: not_running);
 *               purchase and restore answer not_running before it.
 *   "products"  {"productIds": [string]} -> {"products": [{"productId", "displayName",
 *               "priceMilliunits": integer (1.99 is 1990), "currency"}]}
 *               The store's products with these ids; unknown ids are left out.
 *   "purchase"  {"productId": string, "quantity": integer (default 1)} -> PURCHASE
 *               Buys for the signed-in player and answers once settled: delivered,
 *               pending, cancelled or failed. While the server is down it keeps retrying
 *               (the answer waits); if the game dies meanwhile the next "start" resumes
 *               it and tells its end as a "purchase" event.
 *   "restore"   {} -> {"results": [{"transactionId", "originalTransactionId", "productId",
 *               "status": "restored" | "already_owned" | "transferred" |
 *               "kept_by_other_player" | "refused" | "not_restorable" | "rejected",
 *               "code", "message", "finishedByRestore": bool}], "entitlements": ENTITLEMENTS}
 *               "Restore Purchases": non-consumables and subscriptions of the Apple account.
 *   "entitlements" {"refresh": bool (default true)} -> ENTITLEMENTS
 *               ENTITLEMENTS = {"playerId": string or null, "entitlements": [{"entitlementId",
 *               "productId", "state", "entitled": bool, "since", "until", "autoRenew",
 *               "autoRenewProductId", "ownership", "transactionId", "originalTransactionId",
 *               "environment"}], "entitledIds": [string], "isCached": bool, "fetchedAt",
 *               "refreshFailure"}
 *               The server's answer, or the cache beside the journal when it cannot answer
 *               (isCached true, refreshFailure says why) or refresh is false. A server
 *               answer that changes what the client knew is also told, just before, as an
 *               "entitlementsChanged" event.
 *   "pendingDeliveries" {} -> {"purchases": [RECORD]}
 *               Orders paid for (or waiting for Ask to Buy) that the server has not
 *               delivered yet: show "your purchase is on its way".
 *   "events"    {} -> {"sent": n, "unsent": [{"name", "orderId", "transactionId",
 *               "occurredAt": epoch milliseconds, "attributes": {...}}]}
 *               Sends the purchase-flow log (every step of every order) to the server,
 *               where support reads it beside the server's history when a player disputes
 *               a charge; answers how many were sent and those that could not be, yet.
 */
int64_t sk_call(sk_client *client, const char *method, const char *params_json);

/*
 * The oldest waiting event, or NULL when none waits (or the client is NULL or closed).
 * Free it with sk_free. Never blocks.
 */
char *sk_poll(sk_client *client);

/*
 * As sk_poll, but waits up to timeout_ms milliseconds (0 or negative: not at all) for an
 * event. Returns NULL at once when the client is NULL or closed, and when sk_close closes
 * it meanwhile. Blocks only the calling thread.
 */
char *sk_wait(sk_client *client, int32_t timeout_ms);

/*
 * Frees a string the library returned (an event, an sk_open error). NULL is ignored.
 */
void sk_free(char *json);

/*
 * Closes the client: stops its pipeline (the journal keeps every unsettled order for the
 * next sk_open on the same dataDirectory), wakes every sk_wait on it and drops its waiting
 * events; answers of calls still running are never delivered. Returns when the pipeline
 * has stopped. Afterwards the handle is dead: passing it again is harmless (NULL and
 * closed clients are ignored) and a new sk_open never reuses it.
 */
void sk_close(sk_client *client);

#ifdef __cplusplus
}
#endif

#endif /* STOREKEEPER_SDK_H */
