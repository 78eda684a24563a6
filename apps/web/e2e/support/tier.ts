/**
 * Spare team networks the browser tests' worker keeps: few, because each network Docker makes is
 * a network change that aborts the browser's page loads in progress (net::ERR_NETWORK_CHANGED).
 */
export const E2E_CS_SPARES = 4;
