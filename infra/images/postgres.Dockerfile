# PostgreSQL from Debian, configured like the official image: POSTGRES_USER, POSTGRES_PASSWORD and
# POSTGRES_DB create the role and database on first start; data in /var/lib/postgresql/data.
ARG DEBIAN_BASE=flagship-base/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15 /usr/share/doc/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
EXPOSE 5432
HEALTHCHECK --interval=5s --timeout=3s --retries=10 CMD pg_isready -h 127.0.0.1 -U "${POSTGRES_USER:-postgres}" || exit 1
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
