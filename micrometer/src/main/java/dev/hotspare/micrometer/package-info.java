/**
 * hotspare's KPIs on Micrometer: {@link dev.hotspare.micrometer.MicrometerKpis} implements every feature's listener
 * (through {@code KpiListener}) with Micrometer meters, and {@link dev.hotspare.micrometer.KpiSummary} prints them as
 * the one-line-per-KPI summary the CLI and the services show.
 */
package dev.hotspare.micrometer;
