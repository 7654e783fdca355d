"""The support console in a real browser: headless Chromium driven by Playwright.

Run through Scripts/console/run.py, which installs Playwright into a virtual environment of
its own; this file runs inside it:

  console_test.py --binary .build/debug/storekeeper [--artifacts DIR] [--update-docs] [TEST ...]

Starts `storekeeper serve --dev` (console_stack.py), then runs each scenario in a fresh
browser context and prints one PASS or FAIL line per scenario; exits 1 when any failed.
Screenshots of every page go to --artifacts (and, with --update-docs, to docs/console/).
"""

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import sync_playwright

import page_checks
from console_stack import Stack, StaffMember, totp_code, wrong_totp_code

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LOCALES = ROOT / "Sources" / "SupportConsole" / "Resources" / "locales"
CHROMIUM = "/usr/bin/chromium"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
# The narrowest phone the owed queue is checked at (issue 29: its deliver box was off screen).
OWED_PHONE = {"width": 390, "height": 844}
# The tallest screenshot kept: a long page is cut there (the docs show its top).
TALLEST_SHOT = 1600


class Failure(AssertionError):
    pass


def check(condition, message: str) -> None:
    if not condition:
        raise Failure(message)


class Suite:
    def __init__(self, stack: Stack, browser, artifacts: Path, docs: Path):
        self.stack = stack
        self.browser = browser
        self.artifacts = artifacts
        self.docs = docs
        self.contexts = []
        self.shots = []
        self.timings = {}
        self.fixtures = {}

    # --- browser -------------------------------------------------------------------------

    def page(self, viewport=DESKTOP, **options):
        """A page in a fresh context (no cookies), closed after the scenario."""
        context = self.browser.new_context(viewport=viewport, **{"locale": "en-US", **options})
        context.set_default_timeout(15_000)
        context.set_default_navigation_timeout(20_000)
        self.contexts.append(context)
        return context.new_page()

    def close_contexts(self, failed_name: str = None) -> None:
        for index, context in enumerate(self.contexts):
            if failed_name:
                for number, page in enumerate(context.pages):
                    try:
                        page.screenshot(path=str(self.artifacts / f"FAILED-{failed_name}-{index}-{number}.png"))
                    except Exception:
                        pass
            context.close()
        self.contexts = []

    def url(self, path: str) -> str:
        return self.stack.base + path

    def shot(self, page, name: str) -> None:
        """Saves the page as NAME.png: the full page up to TALLEST_SHOT pixels high."""
        path = self.artifacts / f"{name}.png"
        height = page.evaluate("Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)")
        width = page.viewport_size["width"]
        page.screenshot(path=str(path), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": min(height, TALLEST_SHOT)})
        if self.docs:
            self.docs.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, self.docs / f"{name}.png")
        self.shots.append(name)

    @staticmethod
    def submit(page, form):
        """Submits `form` (a selector or locator) with its submit button; the final answer."""
        locator = page.locator(form) if isinstance(form, str) else form
        with page.expect_navigation() as navigation:
            locator.locator("[type=submit]").first.click()
        return navigation.value

    @staticmethod
    def post_form(page, action: str, fields: dict):
        """Posts a form the page builds (what a forged or replayed request looks like)."""
        with page.expect_navigation() as navigation:
            page.evaluate("""([action, fields]) => {
                const form = document.createElement('form');
                form.method = 'post';
                form.action = action;
                for (const [name, value] of Object.entries(fields)) {
                    const input = document.createElement('input');
                    input.type = 'hidden'; input.name = name; input.value = value;
                    form.appendChild(input);
                }
                document.body.appendChild(form);
                form.submit();
            }""", [action, fields])
        return navigation.value

    @staticmethod
    def fill(form, name: str, value: str) -> None:
        field = form.locator(f"[name={name}]").first
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)

    def sign_in(self, page, member, password: str = None, code: str = None):
        """Fills the sign-in form (opening it first when the page is elsewhere); the answer."""
        if "/console/sign-in" not in page.url:
            page.goto(self.url("/console/sign-in"))
        form = page.locator("form#sign-in")
        form.locator("[name=name]").fill(member.name)
        form.locator("[name=password]").fill(password if password is not None else member.password)
        if code is not None:
            form.locator("[name=code]").fill(code)
        return self.submit(page, form)

    def signed_in(self, member, viewport=DESKTOP, **options):
        """A page signed in as `member` (a fresh context)."""
        page = self.page(viewport, **options)
        page.goto(self.url("/console/sign-in"))
        code = totp_code(member.totp_secret) if member.totp_secret else None
        self.sign_in(page, member, code=code)
        expect_signed_in(page, member)
        return page

    def search(self, page, query: str):
        form = page.locator("form#search")
        form.locator("[name=q]").fill(query)
        return self.submit(page, form)


def error_code(page):
    element = page.locator("#error")
    return element.first.get_attribute("data-code") if element.count() else None


def notice_code(page):
    element = page.locator("#notice")
    return element.first.get_attribute("data-code") if element.count() else None


def expect_error(page, code: str, status=None, answer=None) -> None:
    found = error_code(page)
    check(found == code, f"expected #error[data-code={code}] on {page.url}, found {found!r}"
          + (f" (notice {notice_code(page)!r})" if found is None else ""))
    if status is not None and answer is not None:
        check(answer.status == status, f"expected HTTP {status} with {code}, got {answer.status}")


def expect_notice(page, code: str) -> None:
    found = notice_code(page)
    check(found == code,
          f"expected #notice[data-code={code}] on {page.url}, found {found!r} (error {error_code(page)!r})")


def expect_signed_in(page, member) -> None:
    check(page.locator("#staff-name").count() == 1,
          f"not signed in as {member.name} at {page.url} (error {error_code(page)!r})")
    name = page.locator("#staff-name").inner_text().strip()
    check(name == member.name, f"#staff-name says {name!r}, not {member.name!r}")


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url).split("#")[0]


def wallet_row(page, item: str):
    return page.locator(f"#wallet tr[data-item='{item}']")


def locale_strings(language: str) -> dict:
    strings = {}
    for path in sorted((LOCALES / language).glob("*.json")):
        strings.update(json.loads(path.read_text()))
    return strings


# --- scenarios ---------------------------------------------------------------------------

def test_sign_in_and_out(s: Suite) -> None:
    admin = s.stack.staff["dev-admin"]
    page = s.page()
    page.goto(s.url("/console/owed"))
    check("/console/sign-in" in page.url and "next=" in page.url,
          f"an unauthenticated visit to /console/owed should go to the sign-in page with next=, went to {page.url}")
    check(page.locator("html").get_attribute("lang") == "en", "the sign-in page is not lang=en")
    s.shot(page, "sign-in")
    answer = s.sign_in(page, admin)
    expect_signed_in(page, admin)
    check(path_of(page.url) == "/console/owed", f"signed in at {page.url}, not back at /console/owed")
    session = [c for c in page.context.cookies() if c["name"] == "sk_session"]
    check(len(session) == 1, f"no sk_session cookie after sign-in: {[c['name'] for c in page.context.cookies()]}")
    check(session[0]["httpOnly"] and session[0]["sameSite"] == "Strict" and session[0]["path"] == "/console",
          f"the session cookie is not HttpOnly, SameSite=Strict, Path=/console: {session[0]}")
    check(not session[0]["secure"], "serve --dev set a Secure cookie on plain HTTP")
    policy = answer.all_headers().get("content-security-policy", "")
    check("default-src 'self'" in policy and "frame-ancestors 'none'" in policy,
          f"the page's Content-Security-Policy is {policy!r}")
    role = page.locator("#staff-role").inner_text().strip()
    check(role, "#staff-role is empty")
    page.goto(s.url("/console/"))
    check(page.locator("form#search [name=q]").count() >= 1, "no search box on the home page")
    s.shot(page, "home")
    s.submit(page, "form#sign-out")
    check("/console/sign-in" in page.url, f"sign-out went to {page.url}")
    expect_notice(page, "signed_out")
    page.goto(s.url("/console/owed"))
    check("/console/sign-in" in page.url, f"after sign-out /console/owed opened at {page.url}")
    # The session ended in the ledger, not only in this browser: its cookie, replayed, opens nothing.
    replay = s.page()
    replay.context.add_cookies(session)
    replay.goto(s.url("/console/owed"))
    check("/console/sign-in" in replay.url, f"the signed-out session's cookie still opened {replay.url}")
    # A POST without a session is refused, whatever it carries.
    answer = page.request.post(s.url("/console/owed/reconcile"), form={"csrf": "x"}, max_redirects=0)
    check(answer.status == 403, f"an unauthenticated POST answered {answer.status}, not 403")


def test_wrong_password(s: Suite) -> None:
    page = s.page()
    answer = s.sign_in(page, s.stack.staff["dev-admin"], password="not-the-password-at-all")
    expect_error(page, "invalid_credentials")
    check("/console/sign-in" in page.url, f"a wrong password left the sign-in page for {page.url}")
    check(page.locator("#staff-name").count() == 0, "a wrong password signed in")
    check(answer.status in (200, 401, 403), f"a wrong password answered HTTP {answer.status}")


def test_lockout(s: Suite) -> None:
    """No lock (docs/SECURITY.md): failures make a name wait at this address, alike whether an
    account has the name or not, and after the wait the right password signs in."""
    member = s.stack.add_staff("lockout-viewer", "viewer")
    nobody = StaffMember("lockout-nobody", "viewer", member.password)
    page = s.page()
    waits = {}
    for who in (member, nobody):
        for attempt in range(1, 6):
            answer = s.sign_in(page, who, password=f"wrong-password-{attempt}")
            expect_error(page, "invalid_credentials", 401, answer)
        # Then the name waits here: 1 s after the fifth failure, twice as long after each
        # further one. A slow browser (a loaded machine: each attempt a bcrypt check and a
        # page load) may miss the first waits; it cannot miss seven (64 s).
        for _ in range(7):
            answer = s.sign_in(page, who, password="wrong-password-again")
            if error_code(page) != "invalid_credentials":
                break
        expect_error(page, "rate_limited", 429, answer)
        retry = answer.all_headers().get("retry-after", "")
        check(retry.isdigit() and 1 <= int(retry) <= 64, f"{who.name}: Retry-After {retry!r}, not 1 to 64 seconds")
        waits[who.name] = int(retry)
    time.sleep(waits[member.name])
    s.sign_in(page, member)
    expect_signed_in(page, member)
    header = s.stack.staff_list().splitlines()[0].split()
    check(header == ["NAME", "ROLE", "2FA", "DISABLED"], f"`staff list` columns are {header}")


def test_disabled_account(s: Suite) -> None:
    member = s.stack.add_staff("leaver", "agent")
    page = s.signed_in(member)
    s.stack.disable_staff("leaver")
    page.goto(s.url("/console/owed"))
    check("/console/sign-in" in page.url, f"a disabled account's session still opened {page.url}")
    s.sign_in(page, member)
    expect_error(page, "invalid_credentials")
    check(page.locator("#staff-name").count() == 0, "a disabled account signed in")


def test_totp(s: Suite) -> None:
    member = s.stack.add_staff("totp-agent", "agent", totp=True)
    page = s.page()
    s.sign_in(page, member)
    expect_error(page, "code_required")
    s.sign_in(page, member, code=wrong_totp_code(member.totp_secret))
    expect_error(page, "invalid_code")
    check(page.locator("#staff-name").count() == 0, "a wrong code signed in")
    s.sign_in(page, member, code=totp_code(member.totp_secret))
    expect_signed_in(page, member)


def test_viewer_cannot_grant(s: Suite) -> None:
    viewer = s.stack.staff["viewer"]
    alice = s.fixtures["alice"]
    before = s.stack.wallet("alice")
    page = s.signed_in(viewer)
    page.goto(s.url(f"/console/players/{alice.player_id}"))
    check(page.locator("#wallet").count() == 1, "no #wallet on the player page")
    check(page.locator("form#grant").count() == 0, "a viewer sees form#grant")
    csrf = page.locator("input[name=csrf]").first.input_value()
    answer = s.post_form(page, f"/console/players/{alice.player_id}/grants",
                         {"item": "coins", "amount": "5", "reason": "forged by a viewer", "csrf": csrf,
                          "confirmed": "true"})
    expect_error(page, "forbidden", 403, answer)
    check(s.stack.wallet("alice") == before, "a viewer's forged grant changed the wallet")
    page.goto(s.url("/console/audit"))
    expect_error(page, "forbidden")


def test_csrf_refusal(s: Suite) -> None:
    agent = s.stack.staff["agent"]
    alice = s.fixtures["alice"]
    before = s.stack.wallet("alice")
    page = s.signed_in(agent)
    player = s.url(f"/console/players/{alice.player_id}")
    for how, script in [("altered", "f => f.querySelector('input[name=csrf]').value = 'forged-token'"),
                        ("removed", "f => f.querySelector('input[name=csrf]').remove()")]:
        page.goto(player)
        form = page.locator("form#grant")
        s.fill(form, "item", "coins")
        s.fill(form, "amount", "7")
        s.fill(form, "reason", f"csrf test ({how})")
        form.evaluate(script)
        answer = s.submit(page, form)
        check(answer.status == 403, f"the grant form with its csrf {how} answered {answer.status}")
        expect_error(page, "csrf_failed")
    # The step that changes the wallet: the confirmation, its token altered.
    page.goto(player)
    form = page.locator("form#grant")
    s.fill(form, "item", "coins")
    s.fill(form, "amount", "7")
    s.fill(form, "reason", "csrf test (confirmation)")
    s.submit(page, form)
    confirm = page.locator("form#grant-confirm")
    check(confirm.count() == 1, f"no form#grant-confirm after the grant form (error {error_code(page)!r})")
    confirm.evaluate("f => f.querySelector('input[name=csrf]').value = 'forged-token'")
    answer = s.submit(page, confirm)
    check(answer.status == 403, f"the confirmation with an altered csrf answered {answer.status}")
    expect_error(page, "csrf_failed")
    after = s.stack.wallet("alice")
    check(after == before, f"a refused grant changed the wallet: {before} → {after}")


def test_search_by_each_id(s: Suite) -> None:
    alice = s.fixtures["alice"]
    page = s.signed_in(s.stack.staff["viewer"])
    cases = [
        ("player id", alice.player_id, f"/console/players/{alice.player_id}", "player"),
        ("our order id", alice.order_id, f"/console/orders/{alice.order_id}", "order"),
        ("transaction id", alice.transaction_id, f"/console/transactions/{alice.transaction_id}", "transaction"),
        ("original transaction id", alice.original_transaction_id,
         f"/console/transactions/{alice.original_transaction_id}", None),
        ("Apple customer order id", alice.apple_order_id, f"/console/apple-orders/{alice.apple_order_id}", None),
    ]
    for kind, query, expected, shot in cases:
        page.goto(s.url("/console/"))
        s.search(page, query)
        landed = path_of(page.url)
        if landed.startswith("/console/search"):
            link = page.locator(f"main a[href='{expected}'], a[href='{expected}']").first
            check(link.count() == 1, f"search by {kind} {query!r}: results at {landed} have no link to {expected}")
            with page.expect_navigation():
                link.click()
            landed = path_of(page.url)
        check(landed.split("?")[0] == expected, f"search by {kind} {query!r} landed on {landed}, not {expected}")
        check(error_code(page) is None, f"search by {kind}: #error {error_code(page)!r} on {landed}")
        if kind == "player id":
            check(wallet_row(page, "coins").count() == 1, "alice's page has no coins row in #wallet")
            check(page.locator(f"#purchases tr[data-transaction-id='{alice.transaction_id}']").count() == 1,
                  "alice's page does not list her purchase")
            check(page.locator("#timeline li[data-event-type]").count() > 0, "alice's timeline is empty")
        if kind == "transaction id":
            check(page.locator("#apple-signed dt").count() > 0, "the transaction page has no #apple-signed fields")
            check(alice.product_id in page.locator("#apple-signed").inner_text(), "#apple-signed lacks the product id")
        if kind == "Apple customer order id":
            row = page.locator(f"tr[data-transaction-id='{alice.transaction_id}']")
            check(row.count() == 1, "the Apple order page does not list alice's transaction")
            check(row.get_attribute("data-delivered") == "true", "alice's delivered transaction shows undelivered")
        if shot:
            s.shot(page, shot)
    page.goto(s.url("/console/"))
    s.search(page, "no-such-player-or-order")
    expect_error(page, "nothing_found")
    check(page.locator("#no-closest-players").count() == 1, "a search that resembles nobody lists players")
    # A near miss (part of the id, in other letters' case) is no Apple order: the page says
    # nothing has this id and lists the closest players, one click from the right one.
    near_miss = alice.player_id[:3].upper()
    page.goto(s.url("/console/"))
    s.search(page, near_miss)
    expect_error(page, "nothing_found")
    check(page.locator("a[href^='/console/apple-orders/']").count() == 0, f"{near_miss} was taken for an Apple order")
    closest = page.locator(f"#closest-players a[href='/console/players/{alice.player_id}']")
    check(closest.count() == 1, f"the closest players for {near_miss} do not list {alice.player_id}")
    s.shot(page, "search-near-miss")
    closest.click()
    check(path_of(page.url).startswith(f"/console/players/{alice.player_id}"), f"the closest player led to {page.url}")
    # An id that is two things (a game whose player ids are numbers, one of them alice's
    # transaction id): the results list both.
    s.stack.client_event(alice.transaction_id, "app_launched")
    page.goto(s.url("/console/"))
    s.search(page, alice.transaction_id)
    check(path_of(page.url).startswith("/console/search"), f"an ambiguous id landed on {page.url}")
    for expected in [f"/console/transactions/{alice.transaction_id}", f"/console/players/{alice.transaction_id}"]:
        check(page.locator(f"a[href='{expected}']").count() >= 1, f"the results do not link to {expected}")
    s.shot(page, "search-results")


def test_lost_purchase_owed_queue(s: Suite) -> None:
    lost = s.stack.buy_lost("coins100", "bob-phone")
    check(not s.stack.server_knows_transaction(lost.transaction_id),
          "the server knows the lost purchase before the reconciler ran")
    before = s.stack.wallet("bob").get("coins", 0)
    page = s.signed_in(s.stack.staff["agent"])
    start = time.monotonic()
    page.goto(s.url("/console/owed"))
    row = page.locator(f"table#owed tr[data-transaction-id='{lost.transaction_id}']")
    check(row.count() == 0, "the lost purchase is in table#owed before the reconciler ran")
    s.submit(page, "form#reconcile")
    expect_notice(page, "reconciled")
    check(path_of(page.url).startswith("/console/owed"), f"reconcile now went to {page.url}")
    check(row.count() == 1, f"the lost purchase {lost.transaction_id} is not in table#owed after reconciling")
    s.shot(page, "owed")
    deliver_timed(s, page, row.locator("form.deliver"), "bob", start,
                  "lost purchase, owed queue (open owed page → delivered)")
    after = s.stack.wallet("bob").get("coins", 0)
    check(after == before + 100, f"bob's coins went {before} → {after}, not +100")
    page.goto(s.url("/console/players/bob"))
    check(wallet_row(page, "coins").count() == 1 and "100" in wallet_row(page, "coins").inner_text(),
          "bob's #wallet does not show his 100 coins")
    purchase = page.locator(f"#purchases tr[data-transaction-id='{lost.transaction_id}']")
    check(purchase.count() == 1, "bob's page does not list the delivered purchase")
    check(purchase.get_attribute("data-source") == "admin_lookup",
          f"the purchase's source is {purchase.get_attribute('data-source')!r}, not admin_lookup")
    page.goto(s.url("/console/owed"))
    check(page.locator(f"table#owed tr[data-transaction-id='{lost.transaction_id}']").count() == 0,
          "the delivered purchase is still in table#owed")
    # Exactly once: delivering it again (to someone else) is refused and changes nothing.
    others = s.stack.wallet("mallory")
    csrf = page.locator("input[name=csrf]").first.input_value()
    answer = s.post_form(page, f"/console/owed/{lost.transaction_id}/deliver", {"playerId": "mallory", "csrf": csrf})
    expect_error(page, "already_delivered", 409, answer)
    check(s.stack.wallet("bob").get("coins", 0) == after and s.stack.wallet("mallory") == others,
          "delivering a delivered purchase again changed a wallet")


def test_owed_to_right_player(s: Suite) -> None:
    """Two players order the same pack; one pays on a phone whose app never passes the order's
    token nor reports the purchase: Apple's notification reaches the server with no order to
    match, and the charge is owed. The agent finds the price and both candidates on the owed
    queue and gives the charge to the right one with one click."""
    dana_order = s.stack.call("POST", "/v1/orders", {"productId": "coins100"}, token=s.stack.player_token("dana"),
                              expect=(200, 201))
    erin_order = s.stack.call("POST", "/v1/orders", {"productId": "coins100"}, token=s.stack.player_token("erin"),
                              expect=(200, 201))
    paid = s.stack.call("POST", "/emulator/v1/devices/dana-phone/purchases", {"productId": "coins100"})
    transaction_id = paid["transactionId"]
    before = {player: s.stack.wallet(player).get("coins", 0) for player in ("dana", "erin")}
    page = s.signed_in(s.stack.staff["agent"])
    row = page.locator(f"table#owed tr[data-transaction-id='{transaction_id}']")
    deadline = time.monotonic() + 15
    while True:  # the notification arrives asynchronously
        page.goto(s.url("/console/owed"))
        if row.count() == 1:
            break
        check(time.monotonic() < deadline, f"the owed charge {transaction_id} never reached the owed queue")
        time.sleep(0.3)

    phone = s.signed_in(s.stack.staff["agent"], viewport=OWED_PHONE, is_mobile=True, has_touch=True)
    phone.goto(s.url("/console/owed"))
    overflow = phone.evaluate("""() => ({
        viewport: window.innerWidth,
        document: document.documentElement.scrollWidth,
        body: document.body.scrollWidth})""")
    check(overflow["document"] <= overflow["viewport"] and overflow["body"] <= overflow["viewport"],
          f"the owed page overflows a 390-pixel screen: {overflow}")
    phone_row = phone.locator(f"table#owed tr[data-transaction-id='{transaction_id}']")
    for box in (phone_row.locator("form.deliver"), phone_row.locator("form.deliver-candidate").first):
        rect = box.bounding_box()
        check(rect is not None and rect["x"] >= 0 and rect["x"] + rect["width"] <= OWED_PHONE["width"],
              f"a deliver box of the owed row is off a 390-pixel screen: {rect}")
    s.shot(phone, "owed-phone")

    start = time.monotonic()
    page.goto(s.url("/console/owed"))
    price = row.locator(".owed-price").inner_text()
    check(price == "0.99 USD", f"the owed row shows the price {price!r}, not the emulator's 0.99 USD")
    intro = row.locator(".owed-intro").inner_text()
    check("notification came" in intro, f"the owed row's intro does not say the notification came: {intro!r}")
    candidates = row.locator("ul.candidates li")
    listed = [candidates.nth(i).get_attribute("data-order-id") for i in range(candidates.count())]
    check(listed[:2] == [erin_order["orderId"], dana_order["orderId"]],
          f"the candidates are {listed}, not erin's then dana's order (newest first)")
    s.shot(page, "owed-candidates")
    dana = row.locator(f"ul.candidates li[data-order-id='{dana_order['orderId']}'] form.deliver-candidate")
    s.submit(page, dana)  # the one click
    expect_notice(page, "delivered")
    elapsed = time.monotonic() - start
    label = "owed charge to the right player (open owed page → delivered, 1 click)"
    s.timings[label] = elapsed
    print(f"  timing: {label}: {elapsed:.2f} s", flush=True)
    check(path_of(page.url).startswith("/console/players/dana"), f"the delivery went to {page.url}")
    after = {player: s.stack.wallet(player).get("coins", 0) for player in ("dana", "erin")}
    check(after == {"dana": before["dana"] + 100, "erin": before["erin"]},
          f"the wallets went {before} → {after}, not +100 coins for dana alone")
    page.goto(s.url("/console/owed"))
    check(row.count() == 0, "the delivered charge is still in table#owed")


def deliver_timed(s: Suite, page, form, player_id: str, start: float, label: str) -> None:
    """Delivers a row's charge to `player_id` with its form, expects the notice, and records
    the time since `start` under `label`."""
    s.fill(form, "playerId", player_id)
    s.submit(page, form)
    expect_notice(page, "delivered")
    elapsed = time.monotonic() - start
    s.timings[label] = elapsed
    print(f"  timing: {label}: {elapsed:.2f} s", flush=True)


def test_lost_purchase_apple_order(s: Suite) -> None:
    """The seed write-ups' flow: the player quotes the order id of Apple's e-mail receipt."""
    lost = s.stack.buy_lost("coins100", "carol-phone")
    page = s.signed_in(s.stack.staff["agent"])
    start = time.monotonic()
    s.search(page, lost.apple_order_id)
    check(path_of(page.url).startswith(f"/console/apple-orders/{lost.apple_order_id}"),
          f"the receipt's order id landed on {page.url}")
    row = page.locator(f"tr[data-transaction-id='{lost.transaction_id}']")
    check(row.count() == 1, "the Apple order page does not list the charge")
    check(row.get_attribute("data-delivered") == "false", "the lost charge shows as delivered")
    s.shot(page, "apple-order")
    deliver_timed(s, page, row.locator("form.deliver"), "carol", start,
                  "lost purchase, Apple order id (search → delivered)")
    check(s.stack.wallet("carol").get("coins", 0) == 100, "carol did not get her 100 coins")
    page.goto(s.url(f"/console/apple-orders/{lost.apple_order_id}"))
    row = page.locator(f"tr[data-transaction-id='{lost.transaction_id}']")
    check(row.get_attribute("data-delivered") == "true", "the Apple order page still shows the charge undelivered")
    check(row.locator("form.deliver").count() == 0, "a delivered charge still offers form.deliver")


def test_timeline_paging(s: Suite) -> None:
    s.stack.client_event("paula", "store_sheet_shown", count=70)
    page = s.signed_in(s.stack.staff["viewer"])
    page.goto(s.url("/console/players/paula"))
    events = page.locator("#timeline li[data-event-type]")
    first = events.evaluate_all("items => items.map(item => item.dataset.eventId)")
    check(len(first) >= 20, f"paula's first timeline page shows {len(first)} of 70 events")
    check(first == sorted(first, key=int, reverse=True), "the timeline is not newest first")
    older = page.locator("#timeline a[rel=next]")
    check(older.count() == 1, "no a[rel=next] on a timeline of 70 events")
    page.locator("#timeline summary").click()  # the full timeline is collapsed under the summary
    with page.expect_navigation():
        older.click()
    second = events.evaluate_all("items => items.map(item => item.dataset.eventId)")
    check(second and not set(first) & set(second), "the older page repeats events of the first")
    check(int(second[0]) < int(first[-1]), "the older page does not continue where the first ended")


def test_refund_signals(s: Suite) -> None:
    page = s.signed_in(s.stack.staff["viewer"])
    page.goto(s.url("/console/owed"))
    signal = page.locator("#refund-signals tr[data-player-id=mallory]")
    check(signal.count() == 1, "#refund-signals does not list mallory (two refunds, a negative balance)")
    check("negative" in (signal.get_attribute("class") or ""), "mallory's refund signal is not marked negative")
    with page.expect_navigation():
        signal.locator("a").first.click()
    check(path_of(page.url).startswith("/console/players/mallory"), f"the signal's link went to {page.url}")
    row = wallet_row(page, "coins")
    check("negative" in (row.get_attribute("class") or ""), "mallory's negative coins row has no class negative")
    text = row.inner_text()
    check("−150" in text or "-150" in text, f"mallory's coins row does not show −150: {text!r}")
    check(row.locator(".negative-label").count() == 1 and row.locator(".negative-label").inner_text().strip(),
          "the negative balance has no label (colour alone)")
    check(page.locator("#purchases tr[data-refunded]").count() >= 2,
          "mallory's #purchases marks fewer than 2 refunded purchases")


def money(milliunits: int, currency: str = "USD") -> str:
    """`1.29 USD`, `−0.30 USD`: what ConsoleMoney writes for a two-decimal currency."""
    cents = (abs(milliunits) + 5) // 10
    return ("\u2212" if milliunits < 0 and cents else "") + f"{cents // 100}.{cents % 100:02d} {currency}"


def page_figures(page) -> dict:
    """The page's height and how far down (from its top, in pixels) the rows that explain a
    wallet are: the manual grant and the first refund (on the purchase list, or wherever the
    page shows them)."""
    return page.evaluate("""() => {
        const top = selectors => {
            const element = selectors.map(s => document.querySelector(s)).find(e => e);
            return element ? Math.round(element.getBoundingClientRect().top + window.scrollY) : null;
        };
        return {
            height: document.documentElement.scrollHeight,
            width: document.documentElement.scrollWidth, viewport: window.innerWidth,
            grant: top(['#purchases tr[data-kind=manual_grant]', '#timeline li[data-event-type=manual_grant]']),
            refund: top(['#purchases tr[data-refunded]', '#refunds li[data-event-type]']),
        };
    }""")


def test_spend(s: Suite) -> None:
    """alice spent 30 coins in the game (prepare's spend through the admin API): her page's
    summary has them in its Spent column, adding up to her balance, and the list shows the
    spend with the game's key, who asked and why."""
    page = s.signed_in(s.stack.staff["viewer"])
    page.goto(s.url("/console/players/alice"))
    row = page.locator("#summary tr[data-item=coins]")
    row.wait_for()
    bought, refunded, granted, spent, balance = (int(row.get_attribute(f"data-{name}"))
                                                 for name in ["bought", "refunded", "granted", "spent", "balance"])
    check(spent <= -30, f"alice's coins row shows {spent} spent, not at least 30")
    check(bought + refunded + granted + spent == balance == s.stack.wallet("alice")["coins"],
          f"alice's coins row does not add up: {bought} {refunded} {granted} {spent} = {balance}")
    spend = page.locator("#purchases tr[data-kind=spend][data-spend-key=shop-0001]")
    check(spend.count() == 1, "the spend is not in alice's list")
    text = spend.inner_text()
    check("a sword from the shop" in text and "game-server" in text and "30" in text,
          f"the spend's row does not say how much, who and why: {text!r}")
    check(page.locator("#summary [data-figure=spent]").count() == 1, "the summary has no Spent figure")


def test_explain_wallet(s: Suite) -> None:
    """Why does ada have 420 coins? Four packs of 100 bought, 30% of one and all of another
    refunded (−30, −100), 150 granted by hand: the summary at the top of her page says so."""
    ada = s.fixtures["ada"]
    coins = s.stack.wallet("ada")["coins"]
    page = s.signed_in(s.stack.staff["viewer"])
    begun = time.monotonic()
    page.goto(s.url(f"/console/players/{ada.player_id}"))
    figures = page_figures(page)
    print(f"console: figure: explain_wallet: page height {figures['height']} px at 1280×800; the grant at "
          f"y={figures['grant']}, the first refund at y={figures['refund']}", flush=True)
    row = page.locator("#summary tr[data-item=coins]")
    row.wait_for()
    bought, refunded, granted, balance = (int(row.get_attribute(f"data-{name}"))
                                          for name in ["bought", "refunded", "granted", "balance"])
    grant = page.locator("#purchases tr[data-kind=manual_grant]").first
    grant_text = grant.inner_text()
    s.timings["why ada has her coins: the page opened to the summary and the grant read"] = time.monotonic() - begun
    check((bought, refunded, granted, balance) == (400, -130, 150, coins),
          f"ada's coins row says +{bought} bought, {refunded} refunded, +{granted} granted = {balance}, "
          f"not +400, −130, +150 = {coins}")
    check(bought + refunded + granted == balance, "the coins row does not add up to its balance")
    box = row.bounding_box()
    check(box and box["y"] + box["height"] <= DESKTOP["height"],
          f"the coins row of the summary is not on the first screen: {box}")
    check("420" in row.inner_text() and "150" in row.inner_text(), f"the coins row reads {row.inner_text()!r}")
    summary = page.locator("#summary").inner_text()
    for expected in [money(4 * 990), money(990 * 30 // 100 + 990)]:
        check(expected in summary, f"the summary does not show {expected!r} (list price): {summary!r}")
    check("ticket 4711" in grant_text and "game-support" in grant_text,
          f"the manual grant's row does not say who and why: {grant_text!r}")
    check(page.locator("#purchases tr[data-refunded]").count() == 2, "the purchase list does not mark 2 refunds")
    check(page.locator("#timeline details[open]").count() == 0, "the full timeline is not collapsed")
    steps = page.locator("#orders tr[data-order-id] ol.flow li[data-step]")
    check(steps.count() == 16, f"the 4 orders show {steps.count()} purchase-flow steps, not 4 each")
    flow = page.locator("#orders tr[data-order-id] ol.flow").first.locator("li").evaluate_all(
        "items => items.map(item => item.dataset.step)")
    check(flow == ["order_created", "store_sheet_shown", "store_purchased", "report_delivered"],
          f"an order's purchase flow reads {flow}, not in the order the app reported it")
    # As a word: the orders' hexadecimal ids and tokens hold "ada" by chance now and then.
    check(not re.search(rf"\b{re.escape(ada.player_id)}\b", page.locator("#orders").inner_text()),
          "the purchase flow repeats the player")
    s.shot(page, "player-summary")
    phone = s.signed_in(s.stack.staff["agent"], viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True)
    phone.goto(s.url(f"/console/players/{ada.player_id}"))
    narrow = page_figures(phone)
    print(f"console: figure: explain_wallet: page height {narrow['height']} px at 390×844", flush=True)
    check(narrow["width"] <= narrow["viewport"], f"ada's page scrolls sideways at 390 pixels: {narrow}")
    items = phone.locator("form#grant select[name=item] option").evaluate_all("os => os.map(o => o.value)")
    check("coins" in items and "coin" not in items and phone.locator("form#grant input[name=item]").count() == 0,
          f"the grant form's item is not a choice of the catalog's items: {items}")


def test_partial_refund_money(s: Suite) -> None:
    """A refund of 30% of a 3.99 USD pack reads as money on its purchase row: −1.20 USD (30%)."""
    pat = s.fixtures["pat"]
    page = s.signed_in(s.stack.staff["viewer"])
    page.goto(s.url(f"/console/players/{pat.player_id}"))
    row = page.locator(f"#purchases tr[data-transaction-id='{pat.transaction_id}']")
    check(row.count() == 1, "pat's purchase has no row in #purchases")
    check(row.get_attribute("data-refunded") == "30000", f"data-refunded is {row.get_attribute('data-refunded')!r}")
    refund = row.locator(".refund").inner_text()
    expected = f"{money(-3990 * 30 // 100)} (30%)"
    check(expected in refund, f"the refund reads {refund!r}, not {expected!r}")
    check("\u2212150" in refund, f"the refund does not say the 150 coins taken back: {refund!r}")
    summary = page.locator("#summary tr[data-item=coins]")
    check(summary.get_attribute("data-refunded") == "-150", "the summary's coins row does not count −150 refunded")
    check(page.locator("#refunds").count() == 0, "the refund is repeated in a section of its own")


def test_manual_grant(s: Suite) -> None:
    agent = s.stack.staff["agent"]
    alice = s.fixtures["alice"]
    before = s.stack.wallet("alice").get("coins", 0)
    page = s.signed_in(agent)
    page.goto(s.url(f"/console/players/{alice.player_id}"))
    form = page.locator("form#grant")
    check(form.count() == 1, "an agent sees no form#grant")
    s.fill(form, "item", "coins")
    s.fill(form, "amount", "50")
    s.fill(form, "reason", "ticket 4711: the 100-coin pack arrived late")
    s.submit(page, form)
    confirm = page.locator("form#grant-confirm")
    check(confirm.count() == 1, f"no confirmation (error {error_code(page)!r})")
    s.shot(page, "grant-confirmation")
    s.submit(page, confirm)
    expect_notice(page, "granted")
    check(path_of(page.url).startswith(f"/console/players/{alice.player_id}"), f"after the grant: {page.url}")
    newest = page.locator("#timeline li[data-event-type]").first
    check(newest.get_attribute("data-event-type") == "manual_grant",
          f"the newest timeline event is {newest.get_attribute('data-event-type')!r}, not manual_grant")
    after = s.stack.wallet("alice").get("coins", 0)
    check(after == before + 50, f"alice's coins went {before} → {after}, not +50")
    check("50" in wallet_row(page, "coins").inner_text() or str(after) in wallet_row(page, "coins").inner_text(),
          "the wallet on the page does not show the new balance")
    admin = s.signed_in(s.stack.staff["dev-admin"])
    admin.goto(s.url("/console/audit"))
    rows = admin.locator("table#audit tr[data-action=manual_grant]")
    check(rows.count() >= 1, "table#audit has no manual_grant row")
    check(agent.name in rows.first.inner_text(), f"the manual_grant audit row does not name {agent.name}")
    check(admin.locator("table#audit tr[data-action=sign_in]").count() >= 1, "table#audit has no sign_in row")
    s.shot(admin, "audit")


def test_grant_refusals(s: Suite) -> None:
    alice = s.fixtures["alice"]
    before = s.stack.wallet("alice")
    page = s.signed_in(s.stack.staff["agent"])
    for amount, reason, code in [("5000", "over the agent's limit", "over_limit"), ("10", "", "reason_required"),
                                 ("zero", "not a number", "invalid_amount")]:
        page.goto(s.url(f"/console/players/{alice.player_id}"))
        form = page.locator("form#grant")
        s.fill(form, "item", "coins")
        s.fill(form, "amount", amount)
        form.evaluate("f => { f.noValidate = true; }")
        s.fill(form, "reason", reason)
        s.submit(page, form)
        if page.locator("form#grant-confirm").count():
            s.submit(page, "form#grant-confirm")
        expect_error(page, code)
    check(s.stack.wallet("alice") == before, "a refused grant changed the wallet")


def test_admin_pages(s: Suite) -> None:
    page = s.signed_in(s.stack.staff["dev-admin"])
    page.goto(s.url("/console/overview"))
    for chart in ["deliveries-per-day", "refunds-per-day", "delivery-latency", "deliveries-by-source"]:
        check(page.locator(f"svg#{chart}").count() == 1, f"the overview has no svg#{chart}")
        check(page.locator(f"svg#{chart} title").count() >= 1, f"svg#{chart} has no <title>")
    for figure in ["owed-total", "latency-median", "latency-p99"]:
        check(page.locator(f"#{figure}").count() == 1, f"the overview has no #{figure}")
    # serve --dev configures no webhook: the overview leaves its figures out.
    for figure in ["outbox-backlog", "webhook-failures"]:
        check(page.locator(f"#{figure}").count() == 0, f"the overview shows #{figure} without a webhook")
    page.goto(s.url("/console/staff"))
    text = page.locator("main").inner_text() if page.locator("main").count() else page.inner_text("body")
    for name in ["dev-admin", "agent", "viewer", "totp-agent"]:
        check(name in text, f"the staff page does not list {name}")
    s.shot(page, "staff")


def test_chinese(s: Suite) -> None:
    english, chinese = locale_strings("en"), locale_strings("zh-Hans")
    check(english and set(english) == set(chinese), "the en and zh-Hans locale files do not have the same keys")
    alice = s.fixtures["alice"]
    page = s.signed_in(s.stack.staff["agent"])
    page.goto(s.url(f"/console/players/{alice.player_id}"))
    text = page.inner_text("body")
    # Strings of this page: the English texts found on it, whose Chinese must show after the switch.
    shown = [key for key, value in english.items()
             if len(value) >= 4 and "{" not in value and value in text
             and re.search(r"[\u4e00-\u9fff]", chinese[key]) and chinese[key] != value]
    check(len(shown) >= 3, f"fewer than 3 locale strings found on the English player page: {shown}")
    with page.expect_navigation():
        page.locator("a#lang-zh").click()
    check(page.locator("html").get_attribute("lang") == "zh-Hans", "a#lang-zh did not give html[lang=zh-Hans]")
    check(path_of(page.url).startswith(f"/console/players/{alice.player_id}"), f"a#lang-zh went to {page.url}")
    text = page.inner_text("body")
    missing = [chinese[key] for key in shown[:8] if chinese[key] not in text]
    check(not missing, f"Chinese strings missing from the page: {missing}")
    s.shot(page, "player-zh")
    page.goto(s.url("/console/owed"))
    check(page.locator("html").get_attribute("lang") == "zh-Hans", "the language did not stay Chinese")
    with page.expect_navigation():
        page.locator("a#lang-en").click()
    check(page.locator("html").get_attribute("lang") == "en", "a#lang-en did not switch back")


def test_accept_language(s: Suite) -> None:
    page = s.page(locale="zh-CN", extra_http_headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    page.goto(s.url("/console/sign-in"))
    check(page.locator("html").get_attribute("lang") == "zh-Hans",
          f"Accept-Language zh-CN gave lang={page.locator('html').get_attribute('lang')!r}")
    check(re.search(r"[\u4e00-\u9fff]", page.inner_text("body")), "no Chinese text on the sign-in page")
    english = s.page(extra_http_headers={"Accept-Language": "en-GB,en;q=0.9"})
    english.goto(s.url("/console/sign-in"))
    check(english.locator("html").get_attribute("lang") == "en", "Accept-Language en-GB did not give English")


def test_phone(s: Suite) -> None:
    alice = s.fixtures["alice"]
    page = s.signed_in(s.stack.staff["agent"], viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(s.url(f"/console/players/{alice.player_id}"))
    overflow = page.evaluate("""() => ({
        viewport: window.innerWidth,
        document: document.documentElement.scrollWidth,
        body: document.body.scrollWidth})""")
    check(overflow["document"] <= overflow["viewport"] and overflow["body"] <= overflow["viewport"],
          f"the player page overflows a 375-pixel screen: {overflow}")
    check(page.locator("form#search [name=q]").is_visible(), "the search box is not visible on a phone")
    s.shot(page, "phone")


# A phone: 390 x 844 CSS pixels (an iPhone 12 to 15); the header may take a fifth of it.
PHONE_390 = {"width": 390, "height": 844}
HEADER_SHARE = 0.2


def phone_layout(page) -> dict:
    """How the page sits on the screen: the document's width against the screen's, the
    header's height, and the submit buttons and fields (outside a .table-scroll box) that
    end beyond the screen's right edge."""
    return page.evaluate("""() => {
        const root = document.documentElement;
        const header = document.querySelector('header.top');
        const outside = [...document.querySelectorAll('main form button, main form input:not([type=hidden]), main form select, main form textarea, header form button')]
            .filter(e => !e.closest('.table-scroll') && e.getClientRects().length)
            .filter(e => e.getBoundingClientRect().right > root.clientWidth + 1)
            .map(e => (e.closest('form') && e.closest('form').id || e.closest('form').className) + ' ' + (e.name || e.type));
        return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth,
                header: header ? Math.round(header.getBoundingClientRect().height) : 0, outside};
    }""")


def print_layout(language: str, name: str, layout: dict) -> None:
    print(f"console: phone 390: {language} {name}: scrollWidth {layout['scrollWidth']} / "
          f"{layout['clientWidth']}, header {layout['header']} px"
          + (f", beyond the edge: {layout['outside']}" if layout["outside"] else ""), flush=True)


def test_phone_every_page(s: Suite) -> None:
    """Every page the fixtures reach, at 390 x 844 in English and Chinese: nothing scrolls
    sideways (tables scroll inside their own box), the forms' fields and buttons are on the
    screen, the header takes at most a fifth of the height, and no page shows people epoch
    milliseconds, a JSON object or a field name as the machine spells it (page_checks)."""
    alice, ada, pat = s.fixtures["alice"], s.fixtures["ada"], s.fixtures["pat"]
    zhang = s.fixtures["zhang"]
    lost = s.stack.buy_lost("coins100", "phone-390")
    s.stack.client_event(alice.transaction_id, "app_launched")
    options = {"viewport": PHONE_390, "is_mobile": True, "has_touch": True}
    measured, shown = [], []
    for language, locale in [("en", "en-US"), ("zh-Hans", "zh-CN")]:
        headers = {"locale": locale, "extra_http_headers": {"Accept-Language": f"{locale},{locale[:2]};q=0.9"}}
        visitor = s.page(PHONE_390, is_mobile=True, has_touch=True, **headers)
        visitor.goto(s.url("/console/sign-in"))
        admin = s.signed_in(s.stack.staff["dev-admin"], **options, **headers)
        check(admin.locator("html").get_attribute("lang") == language, f"the console is not in {language}")
        if language == "en":
            admin.goto(s.url("/console/owed"))
            s.submit(admin, "form#reconcile")
            check(admin.locator(f"table#owed tr[data-transaction-id='{lost.transaction_id}']").count() == 1,
                  "the lost purchase is not in the owed queue after reconciling")
        for name, path in [
            ("home", "/console/"), ("search-results", f"/console/search?q={alice.transaction_id}"),
            ("player", f"/console/players/{alice.player_id}"),
            ("transaction", f"/console/transactions/{alice.transaction_id}"),
            ("order", f"/console/orders/{alice.order_id}"), ("apple-order", f"/console/apple-orders/{alice.apple_order_id}"),
            ("owed", "/console/owed"), ("overview", "/console/overview"), ("audit", "/console/audit"),
            ("staff", "/console/staff"), ("error", "/console/orders/no-such-order"),
            ("player-refunds-and-grants", f"/console/players/{ada.player_id}"),
            ("player-chinese-name", f"/console/players/{quote(zhang.player_id)}"),
            ("subscription", f"/console/transactions/{zhang.transaction_id}"),
            ("partial-refund", f"/console/transactions/{pat.transaction_id}"),
            ("near-miss", "/console/search?q=zhangsan"),
            ("owed-transaction", f"/console/transactions/{lost.transaction_id}"),
        ]:
            admin.goto(s.url(path))
            measured.append((language, name, phone_layout(admin)))
            print_layout(*measured[-1])
            shown.extend(f"{language} {name}: {problem}"
                         for problem in page_checks.problems(admin, chinese=language == "zh-Hans"))
            if name == "owed":
                check(admin.locator("table#owed form.deliver").count() >= 1, "the owed page has no deliver form")
            if (language, name) in [("en", "owed"), ("zh-Hans", "overview")]:
                s.shot(admin, f"phone-{name}-{language}")
        form = admin.locator("form#grant")
        admin.goto(s.url(f"/console/players/{alice.player_id}"))
        check(form.count() == 1, "dev-admin sees no form#grant")
        s.fill(form, "item", "coins")
        s.fill(form, "amount", "1")
        s.fill(form, "reason", "phone layout check")
        s.submit(admin, form)
        check(admin.locator("form#grant-confirm").count() == 1, f"no grant confirmation (error {error_code(admin)!r})")
        measured.append((language, "grant-confirm", phone_layout(admin)))
        print_layout(*measured[-1])
        measured.append((language, "sign-in", phone_layout(visitor)))
        print_layout(*measured[-1])
        check(error_code(visitor) is None, "the sign-in page shows an error")
    check(not shown, "pages show people what the machine wrote:\n  " + "\n  ".join(shown))
    wide = [(language, name, layout["scrollWidth"]) for language, name, layout in measured
            if layout["scrollWidth"] > layout["clientWidth"]]
    check(not wide, f"pages scroll sideways at 390 px: {wide}")
    off = [(language, name, layout["outside"]) for language, name, layout in measured if layout["outside"]]
    check(not off, f"form fields or buttons beyond the screen's edge: {off}")
    tall = [(language, name, layout["header"]) for language, name, layout in measured
            if layout["header"] > HEADER_SHARE * PHONE_390["height"]]
    check(not tall, f"the header takes more than a fifth of an 844-pixel screen: {tall}")


def money_cents(text: str) -> int:
    """`9.90 USD` or `−3.00 USD` (U+2212) as cents."""
    number = text.split()[0].replace(",", "").replace("\u2212", "-")
    return round(float(number) * 100)


def revenue_total(page) -> dict:
    row = page.locator("#revenue-table tr.revenue-total[data-currency=USD]")
    if not row.count():
        return {"gross": 0, "refunded": 0, "net": 0}
    cells = [money_cents(cell) for cell in row.locator("td").all_inner_texts()]
    return {"gross": cells[0], "refunded": cells[1], "net": cells[2]}


def test_overview_revenue(s: Suite) -> None:
    """The overview's revenue at list price: a purchase adds coins100's list price (read
    from GET /v1/products) to gross and net, its refund to refunded and takes it off net; the owed count is the owed page's; empty
    charts say "none"; no webhook figures without a webhook."""
    page = s.signed_in(s.stack.staff["dev-admin"])
    english = locale_strings("en")
    page.goto(s.url("/console/overview"))
    before = revenue_total(page)
    check(page.locator("svg#revenue-per-day-USD").count() == 1, "the overview has no svg#revenue-per-day-USD")
    check(english["chart_revenue_title"] in page.inner_text("main"), "the revenue chart's title is missing")
    check("list price" in english["chart_revenue_title"], "the revenue chart does not say list price")
    price = s.stack.list_price_cents("coins100")
    bought = s.stack.buy("rita", "coins100", "rita-phone")
    page.reload()
    after = revenue_total(page)
    check(after["gross"] == before["gross"] + price and after["net"] == before["net"] + price,
          f"a coins100 purchase moved the revenue {before} -> {after}, not by {price} cents")
    s.stack.refund(bought.transaction_id)
    s.stack.wait_for_wallet("rita", "coins", 0)
    page.reload()
    refunded = revenue_total(page)
    check(refunded["refunded"] == after["refunded"] + price and refunded["net"] == after["net"] - price,
          f"its refund moved the revenue {after} -> {refunded}, not by {price} cents")
    check(page.locator("#revenue-table tbody tr[data-currency=USD]").count() >= 1, "no day in the revenue table")
    nones = page.locator("svg text.none")
    empty_charts = page.evaluate("""() => [...document.querySelectorAll('svg.chart')].filter(svg =>
        [...svg.querySelectorAll('g.bar rect')].every(r => parseFloat(r.getAttribute('height')) === 0)).map(s => s.id)""")
    check(nones.count() == len(empty_charts), f"empty charts {empty_charts} but {nones.count()} say none")
    said = nones.evaluate_all("texts => texts.map(t => t.textContent)")
    check(all(text == english["chart_none"] for text in said), f"an empty chart does not say none: {said}")
    check(page.locator("#outbox-backlog, #webhook-failures").count() == 0, "webhook figures without a webhook")
    owed = int(page.locator("#owed-total").inner_text().replace(",", ""))
    page.goto(s.url("/console/owed"))
    rows = page.locator("table#owed tbody tr[data-transaction-id]").count()
    check(owed == rows, f"the overview counts {owed} owed, the owed page lists {rows}")
    page.goto(s.url("/console/overview"))
    s.shot(page, "overview")


def test_audit_names(s: Suite) -> None:
    """The audit log names actions for people in both languages, links targets to their
    pages, and lists the admin API's grant (prepare's, by `game-server`) with its actor."""
    alice = s.fixtures["alice"]
    page = s.signed_in(s.stack.staff["dev-admin"])
    page.goto(s.url(f"/console/players/{alice.player_id}"))
    page.goto(s.url("/console/audit"))
    for language in ["en", "zh-Hans"]:
        strings = locale_strings(language)
        viewed = page.locator("table#audit tr[data-action=view_player]").first
        check(viewed.count() == 1, "no view_player row")
        check(viewed.locator("td.audit-action").inner_text().strip() == strings["audit_action_view_player"],
              f"view_player is not named {strings['audit_action_view_player']!r} in {language}")
        link = viewed.locator(f"a[href='/console/players/{alice.player_id}']")
        check(link.count() == 1, "the view_player row does not link the player")
        unnamed = [code for code in page.locator("table#audit tr[data-action]").evaluate_all(
            "rows => rows.map(r => r.dataset.action)") if f"audit_action_{code}" not in strings]
        check(not unnamed, f"actions without a name: {unnamed}")
        if language == "en":
            s.shot(page, "audit")
            with page.expect_navigation():
                page.locator("a#lang-zh").click()
    with page.expect_navigation():
        link.click()
    check(path_of(page.url) == f"/console/players/{alice.player_id}", f"the target link went to {page.url}")
    # Prepare's grant is pages back after the other scenarios: the actor filter finds it.
    page.goto(s.url("/console/audit?actor=game-server"))
    grant = page.locator("table#audit tr[data-action=admin_api_grant]")
    mallory = grant.filter(has=page.locator("a[href='/console/players/mallory']"))
    check(mallory.count() == 1, "the admin API's grant to mallory is not in the audit log, linked")
    check("game-server" in mallory.first.inner_text(), "the admin API's grant does not name its actor")


def test_rate_limit(s: Suite) -> None:
    """Last: from here on every sign-in from this address is refused for the window."""
    page = s.page()
    for attempt in range(1, 26):
        answer = s.sign_in(page, StaffMember(f"guess-{attempt}", "viewer", "a-guessed-password"))
        if error_code(page) == "rate_limited":
            break
        expect_error(page, "invalid_credentials")
    expect_error(page, "rate_limited", 429, answer)
    s.sign_in(page, s.stack.staff["agent"])
    expect_error(page, "rate_limited")
    check(page.locator("#staff-name").count() == 0, "a rate-limited address signed in")


SCENARIOS = [
    test_sign_in_and_out, test_wrong_password, test_lockout, test_totp, test_viewer_cannot_grant,
    test_csrf_refusal, test_search_by_each_id, test_lost_purchase_owed_queue, test_owed_to_right_player,
    test_lost_purchase_apple_order, test_timeline_paging, test_refund_signals, test_explain_wallet,
    test_partial_refund_money, test_spend, test_manual_grant, test_grant_refusals, test_admin_pages, test_chinese,
    test_accept_language, test_phone, test_phone_every_page, test_overview_revenue, test_audit_names,
    test_disabled_account,
    test_rate_limit,  # last: it leaves this address unable to sign in
]


def prepare(stack: Stack, suite: Suite) -> None:
    """Staff accounts and purchases the scenarios share."""
    stack.add_staff("agent", "agent")
    stack.add_staff("viewer", "viewer")
    suite.fixtures["alice"] = stack.buy("alice", "coins100", "alice-phone")
    stack.buy("alice", "coins100", "alice-phone")
    # Coins spent in the game: a spend row on the player page and a spend event.
    stack.spend("alice", {"coins": 30}, "a sword from the shop", "shop-0001")
    # A refund abuser: two packs bought, most of the coins spent, both refunded: a negative
    # balance and two refunds (the owed page's refund signals).
    first = stack.buy("mallory", "coins100", "mallory-phone")
    second = stack.buy("mallory", "coins100", "mallory-phone")
    stack.admin_grant("mallory", {"coins": -150}, "spent in the game shop", "game-server")
    stack.refund(first.transaction_id)
    stack.refund(second.transaction_id)
    stack.wait_for_wallet("mallory", "coins", -150)
    # A wallet to explain: four packs of 100 coins, 30% of one refunded and all of another,
    # 150 coins granted by hand: 400 − 30 − 100 + 150 = 420.
    packs = [stack.buy("ada", "coins100", "ada-phone") for _ in range(4)]
    suite.fixtures["ada"] = packs[0]
    stack.refund(packs[0].transaction_id, percentage=30_000)
    stack.refund(packs[1].transaction_id)
    stack.admin_grant("ada", {"coins": 150}, "ticket 4711: the pack of 12 May never arrived", "game-support")
    stack.wait_for_wallet("ada", "coins", 420)
    # A partial refund: 30% of the 500-coin pack (3.99 USD list price).
    suite.fixtures["pat"] = stack.buy("pat", "coins500", "pat-phone")
    stack.refund(suite.fixtures["pat"].transaction_id, percentage=30_000)
    stack.wait_for_wallet("pat", "coins", 350)
    # A player with a Chinese name, who bought a level pack and a subscription.
    stack.buy("张三", "levelpack1", "zhang-phone")
    suite.fixtures["zhang"] = stack.buy("张三", "vip.monthly", "zhang-phone")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "storekeeper"))
    parser.add_argument("--artifacts", default=str(ROOT / ".build" / "console-artifacts"))
    parser.add_argument("--update-docs", action="store_true", help="also save the screenshots to docs/console/")
    parser.add_argument("--keep", action="store_true", help="keep the server's work directory")
    parser.add_argument("tests", nargs="*", help="scenario names (without test_) to run; all by default")
    arguments = parser.parse_args()
    scenarios = [t for t in SCENARIOS if not arguments.tests or t.__name__.removeprefix("test_") in arguments.tests]
    if not scenarios:
        print(f"console: no scenario named {arguments.tests}", flush=True)
        return 2
    artifacts = Path(arguments.artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    for old in artifacts.glob("*.png"):
        old.unlink()
    workdir = Path(tempfile.mkdtemp(prefix="storekeeper-console-"))
    stack = Stack(str(Path(arguments.binary).resolve()), workdir)
    started = time.monotonic()
    results = []
    setup_failed = False
    try:
        try:
            stack.start()
        except (SystemExit, Exception) as error:
            print(f"FAIL setup: {error}", flush=True)
            results.append(("setup", False))
            if stack.child:
                print(stack.child.tail(), flush=True)
            raise SystemExit(1)
        print(f"console: serve --dev at {stack.base}/console/ (work directory {workdir})", flush=True)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"], headless=True)
            suite = Suite(stack, browser, artifacts, ROOT / "docs" / "console" if arguments.update_docs else None)
            try:
                prepare(stack, suite)
            except Exception as error:
                print(f"FAIL setup: the fixtures could not be made: {error}\n{stack.child.tail()}", flush=True)
                results.append(("setup", False))
                raise SystemExit(1)
            for scenario in scenarios:
                name = scenario.__name__.removeprefix("test_")
                begun = time.monotonic()
                try:
                    scenario(suite)
                except Exception as error:  # a Failure, or Playwright's own (a timeout)
                    suite.close_contexts(failed_name=name)
                    detail = str(error).strip().splitlines()
                    print(f"FAIL {name} ({time.monotonic() - begun:.1f} s): {detail[0] if detail else repr(error)}",
                          flush=True)
                    if isinstance(error, Failure) and len(detail) > 1:
                        print("\n".join(detail[1:]), flush=True)
                    if not isinstance(error, Failure):
                        traceback.print_exc(limit=3)
                    results.append((name, False))
                else:
                    suite.close_contexts()
                    print(f"PASS {name} ({time.monotonic() - begun:.1f} s)", flush=True)
                    results.append((name, True))
            browser.close()
        crash = stack.child.crash_report()
        if crash:
            print(f"FAIL server: {crash}\n{stack.child.tail()}", flush=True)
            results.append(("server", False))
        for label, seconds in suite.timings.items():
            print(f"console: timing: {label}: {seconds:.2f} s", flush=True)
        print(f"console: screenshots in {artifacts}: {', '.join(suite.shots)}", flush=True)
    except SystemExit:
        setup_failed = True
    finally:
        stack.stop()
        failed = [name for name, ok in results if not ok]
        if failed or arguments.keep:
            print(f"console: server log and ledger kept in {workdir}", flush=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    passed = sum(1 for _, ok in results if ok)
    print(f"console: finished in {time.monotonic() - started:.0f} s", flush=True)
    print(f"console: {passed} passed, {len(failed)} failed", flush=True)
    if failed:
        print("console: FAILED: " + ", ".join(failed), flush=True)
    return 1 if failed or setup_failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
