"""`auditor serve`: the two service contracts over HTTP, signed answers, and an upload page.

One module per job: `app` (the aiohttp application and its process-wide state), `state`,
`reference_check` (`GET /criteria`, `POST /check`, `POST /precheck`), `overlap`
(`POST /v1/sources/check`), `openapi` (`GET /openapi.json`), `page` (`GET /`, `POST /audit`),
`lookups` (register records shared and batched across requests), `coalesce` and `stages` (the
table stages run once per event-loop turn for every request that reached them), `pacing` (the
free pre-check's allowance), `bodies` (capped, timed request bodies, bounded answers and JSON
errors), `check_request` (the contract's body, checked strictly), and who is answered: `gates`
(Host, Origin, bearer tokens, the client key allowances use), `guard` (head timeouts, connections
per address, malformed requests answered without their bytes), `clients` (requests in flight per
client, fair turns for uploads) and `uploads` (files streamed to disk, the answer's one ZIP).
"""
