"""Error answers: JSON under /api/, a translated page elsewhere; CSRF failures keep the input of
a form that came from one of our pages, and offer nothing else again."""

from __future__ import annotations

from flask import Flask, Response, abort, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

#: status -> the stable code the API puts in `error.code`.
ERROR_CODES: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "too_many_requests",
    500: "internal_error",
}


def _title(status: int) -> str:
    titles = {
        400: gettext("That request was not understood"),
        403: gettext("Not allowed"),
        404: gettext("Page not found"),
        405: gettext("Not possible here"),
        409: gettext("Someone else changed this first"),
        413: gettext("That is too much at once"),
        415: gettext("That is not JSON"),
        429: gettext("Too many requests"),
        500: gettext("Something went wrong on our side"),
    }
    return titles.get(status, gettext("Something went wrong"))


def _message(status: int) -> str:
    messages = {
        400: gettext("Please check what you entered and try again."),
        403: gettext("You may not change this. Changing a game needs its edit link."),
        404: gettext("There is nothing at this address. Check the link or start from the top."),
        405: gettext("This address cannot be used that way."),
        409: gettext("The game was changed in the meantime. Reload the page and enter it again."),
        413: gettext("What you sent is too large. Please send less."),
        415: gettext("Send the body as JSON, with the header Content-Type: application/json."),
        500: gettext("The error has been noted. Please try again in a moment."),
    }
    return messages.get(status, gettext("Please try again."))


def wants_json() -> bool:
    """API paths answer JSON, whatever went wrong; so does a request that asks for JSON rather
    than a page (the offline outbox posting a form)."""
    if request.path.startswith("/api/"):
        return True
    return request.accept_mimetypes.best_match(("text/html", "application/json")) == (
        "application/json"
    )


def error_message(error: HTTPException) -> str:
    """A description the raiser chose (`abort(400, description=...)`), else ours."""
    status = error.code or 500
    if error.description and error.description != type(error).description:
        return error.description
    return _message(status)


def _with_allow(response: Response, error: HTTPException) -> Response:
    """The error's own headers that say what to do next: Allow (405), Retry-After (429)."""
    valid_methods = getattr(error, "valid_methods", None)
    if valid_methods:
        response.headers["Allow"] = ", ".join(valid_methods)
    retry_after = dict(error.get_headers()).get("Retry-After")
    if retry_after and "Retry-After" not in response.headers:
        response.headers["Retry-After"] = retry_after
    return response


def _for_htmx(response: Response) -> Response:
    # An htmx request puts the error page's <main> where the page's <main> is, not into the
    # small target it asked for (htmx swaps 4xx/5xx too: see htmx-config in base.html).
    if request.headers.get("HX-Request") == "true":
        response.headers["HX-Retarget"] = "#main"
        response.headers["HX-Reselect"] = "#main"
        response.headers["HX-Reswap"] = "outerHTML"
    return response


def handle_http_error(error: HTTPException) -> ResponseReturnValue:
    status = error.code or 500
    if wants_json():
        body = {
            "error": {
                "code": ERROR_CODES.get(status, f"http_{status}"),
                "message": error_message(error),
            }
        }
        return _with_allow(jsonify(body), error), status
    page = render_template(
        "errors/error.html", status=status, title=_title(status), message=error_message(error)
    )
    return _for_htmx(_with_allow(Response(page, status=status), error))


def _same_origin() -> bool:
    """Whether the post came from a page of this site, as the browser says: `Origin`, else
    `Sec-Fetch-Site`, else the `Referer`. A browser that says none of them is not believed."""
    here = request.host_url.rstrip("/")
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin == here
    fetched = request.headers.get("Sec-Fetch-Site")
    if fetched is not None:
        return fetched == "same-origin"
    referrer = request.headers.get("Referer", "")
    return referrer == here or referrer.startswith(here + "/")


def _signed_here(token: str) -> bool:
    """Whether `token` is a CSRF token this server signed (for some session: the phone's own
    session may have been lost since its page was drawn)."""
    key = current_app.config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
    if not isinstance(key, str | bytes):
        return False
    try:
        URLSafeTimedSerializer(key, salt="wtf-csrf-token").loads(token)
    except BadData:
        return False
    return True


def may_send_again() -> bool:
    """A post refused for its CSRF token may be offered again (with a fresh token) only when it
    came from a page of this site with a token this server gave: a phone whose session was lost
    since it drew the form. Anything else may be a cross-site post: offering it again would let
    one tap complete it (issue 34)."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    token = request.form.get(field, "")
    return bool(token) and _same_origin() and _signed_here(token)


def handle_csrf_error(error: CSRFError) -> ResponseReturnValue:
    """The form's token had expired or was missing: offer to send the same input again, when
    it came from one of our pages (`may_send_again`); else say nothing was sent, and offer
    nothing.

    A feature that would rather re-render its own form registers its own
    `@bp.errorhandler(CSRFError)`; Flask prefers the blueprint's handler to this one.
    """
    again = may_send_again()
    if again:
        message = gettext(
            "This form had expired, so nothing was saved yet. "
            "What you entered is kept: press “Send again”."
        )
    else:
        message = gettext(
            "This form did not come from a page of this site as it is now, so nothing was "
            "saved. Open the page again and fill it in there."
        )
    if wants_json():
        return jsonify({"error": {"code": "csrf_failed", "message": message}}), 400
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    kept = [(name, value) for name, value in request.form.items(multi=True) if name != field]
    page = render_template(
        "errors/csrf.html",
        status=400,
        title=gettext("Please send the form again") if again else gettext("Nothing was sent"),
        message=message,
        action=request.script_root + request.full_path.rstrip("?"),
        kept=kept if again else None,
    )
    return _for_htmx(Response(page, status=400))


def no_redirect_under_api() -> None:
    """A path the router would redirect (`//` in it, a slash missing) is a 404 under /api/:
    a client is told the address is wrong in JSON, not sent on by an HTML page."""
    if isinstance(request.routing_exception, RequestRedirect) and wants_json():
        abort(404)


def init_app(app: Flask) -> None:
    app.before_request(no_redirect_under_api)
    # HTTPException covers every status, and an unhandled exception too: Flask hands it over
    # as an InternalServerError.
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(HTTPException, handle_http_error)
