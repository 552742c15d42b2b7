/** Maestro's scheduler operations under the lock protocol: updates, rolling replaces, rollbacks, scale-downs, deletes, queries. */
package dev.hotspare.fleet.runtime.operations;
