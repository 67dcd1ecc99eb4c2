# The reference-check service (`auditor serve`: the reference-check and citation-overlap
# contracts and the upload page) in a container.
#
#   docker build -t auditor .
#   printf 'alice %s\n' "$(openssl rand -hex 24)" > tokens     # one `NAME TOKEN` a line
#   docker run --rm -p 8000:8000 -v "$PWD/tokens:/run/secrets/auditor-tokens:ro" \
#     -v auditor-data:/home/auditor auditor
#
# Beyond loopback the service lets in only holders of a token (`--tokens`, here the mounted
# file); it answers `localhost` and IP literals, other host names only with `--allow-host NAME`.
# The register cache and the signing key live in the user's home: keep them in a volume so a
# restart neither asks the registers again nor changes the key. Options after the image name
# replace CMD (`docker run … auditor --host 0.0.0.0 --port 8000 --mailto you@example.org`).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    AUDITOR_SERVE_TOKENS=/run/secrets/auditor-tokens

WORKDIR /src
# Only what the package needs (the build reads the README as the long description).
COPY pyproject.toml README.md ./
COPY auditor ./auditor
RUN pip install . \
    && rm -rf /src \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin auditor

USER auditor
WORKDIR /home/auditor
EXPOSE 8000
ENTRYPOINT ["auditor", "serve"]
# Inside a container the service must listen beyond loopback to be reached through -p.
CMD ["--host", "0.0.0.0", "--port", "8000"]
