# Sushi Bar in a container. docs/OPERATIONS.md, "Docker", shows how to run it; compose.yaml runs it
# with its volume (and PostgreSQL, if wanted). Build: docker build -t sushibar .
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# A user of its own, who may write nothing but the database's folder.
RUN useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent sushibar \
    && mkdir /data && chown sushibar:sushibar /data

WORKDIR /app
COPY . .
# README's install command, word for word (tests/test_deploy.py checks that they agree).
RUN python3 -m venv .venv && .venv/bin/pip install -e .

# DATABASE_PATH: the SQLite file on the volume (compose.yaml sets it again over .env's).
# HTTP_PORT: /healthz for the health check below, bound to 127.0.0.1 inside the container unless
# HTTP_HOST says otherwise (HTTP_HOST=0.0.0.0 and a published port to scrape /metrics from outside).
ENV PATH="/app/.venv/bin:$PATH" \
    DATABASE_PATH=/data/sushibar.db \
    HTTP_PORT=8080
EXPOSE 8080

USER 10001:10001
VOLUME ["/data"]
# The bot stops cleanly on SIGTERM within 10 s: give it that (docker stop -t 30, compose's
# stop_grace_period) before the SIGKILL.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "bot.py", "--health"]
CMD ["python", "bot.py"]
