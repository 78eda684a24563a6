# nginx from Debian, reading /etc/nginx/conf.d/*.conf like the official image, logging to stdout.
ARG DEBIAN_BASE=flagship-base/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc/* /etc/nginx/sites-enabled/* \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
