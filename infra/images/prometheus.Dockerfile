# Prometheus from Debian's package (2.42 on bookworm), run like the official image: the binary as
# the entrypoint, its configuration in /etc/prometheus, its data in /prometheus, as a non-root user.
ARG DEBIAN_BASE=flagship-base/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc/* \
 && mkdir -p /prometheus && chown prometheus:prometheus /prometheus
USER prometheus
WORKDIR /prometheus
VOLUME /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
