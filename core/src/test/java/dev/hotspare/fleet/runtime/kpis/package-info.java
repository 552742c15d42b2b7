/** The fleet's KPIs: scale operations, rooms per status, lock waits. */
package dev.hotspare.fleet.runtime.kpis;
