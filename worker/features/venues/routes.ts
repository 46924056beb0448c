import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { CreateVenueSchema, DashboardQuerySchema, IdParamSchema, LocationSchema, ProfileSchema, RegisterVenueSchema, UpdateVenueSchema } from './contract';
import * as svc from './service';

/** Mounted at /api/owner: the owner dashboard, businesses, places and the contact profile. */
export const venuesRoutes = new Hono<AppEnv>()
  .get('/dashboard', validate('query', DashboardQuerySchema), async (c) =>
    c.json(await svc.getDashboard(c.var.deps, c.var.user, { venueId: c.req.valid('query').venueId })),
  )
  .post('/venues', validate('json', CreateVenueSchema), async (c) => c.json(await svc.createVenue(c.var.deps, c.var.user, c.req.valid('json')), 201))
  .post('/venues/register', validate('json', RegisterVenueSchema), async (c) =>
    c.json(await svc.registerVenue(c.var.deps, c.var.user, c.req.valid('json')), 201),
  )
  .patch('/venues/:id', validate('param', IdParamSchema), validate('json', UpdateVenueSchema), async (c) =>
    c.json(await svc.updateVenue(c.var.deps, c.var.user, { ...c.req.valid('json'), venueId: c.req.valid('param').id })),
  )
  .post('/venues/:id/locations', validate('param', IdParamSchema), validate('json', LocationSchema), async (c) =>
    c.json(await svc.createLocation(c.var.deps, c.var.user, { ...c.req.valid('json'), venueId: c.req.valid('param').id }), 201),
  )
  .patch('/locations/:id', validate('param', IdParamSchema), validate('json', LocationSchema), async (c) =>
    c.json(await svc.updateLocation(c.var.deps, c.var.user, { ...c.req.valid('json'), locationId: c.req.valid('param').id })),
  )
  .delete('/locations/:id', validate('param', IdParamSchema), async (c) =>
    c.json(await svc.deleteLocation(c.var.deps, c.var.user, { locationId: c.req.valid('param').id })),
  )
  .get('/profile', async (c) => c.json(await svc.getProfile(c.var.deps, c.var.user)))
  .put('/profile', validate('json', ProfileSchema), async (c) => c.json(await svc.saveProfile(c.var.deps, c.var.user, c.req.valid('json'))));
