# redis-server from Debian; like the official image it accepts connections from other containers
# (protected mode off) and keeps its data in /data.
ARG DEBIAN_BASE=flagship-base/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc/* && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
VOLUME /data
EXPOSE 6379
HEALTHCHECK --interval=5s --timeout=3s --retries=10 CMD redis-cli ping | grep -q PONG
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
