/**
 * Key performance indicators across features: {@link dev.hotspare.kpi.KpiListener} is a pool, fleet, lock and
 * rollout listener in one, so one object plugs into every runtime component and into the simulator. This
 * package sits on top: it implements the features' listeners and nothing below it imports it.
 */
package dev.hotspare.kpi;
