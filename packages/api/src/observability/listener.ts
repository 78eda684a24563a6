import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `registry` as Prometheus text at /metrics on `host:port` (port 0: any free one), on a
 * plain HTTP server of its own: nothing else is served there, and nothing of it on the public port.
 */
export async function startMetricsListener(registry: Registry, { host, port }: { host: string; port: number }): Promise<MetricsListener> {
  const server = http.createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not Found\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" }).end(text),
      (error: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(`${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
