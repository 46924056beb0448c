import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import {
  CreateVenueSchema,
  DashboardQuerySchema,
  IdParamSchema,
  LocationSchema,
  ProfileSchema,
  RegisterVenueSchema,
  UpdateVenueSchema,
} from './contract';
import * as svc from './service';

/** Mounted at /api/owner: the owner dashboard, businesses, places and the contact profile. */
export const venuesRoutes = new Hono<AppEnv>()
  .get('/dashboard', validate('query', DashboardQuerySchema), async (c) =>
    c.json(await svc.getDashboard(c.var.db, c.var.user, c.var.clock.today(), c.req.valid('query').venueId)),
  )
  .post('/venues', validate('json', CreateVenueSchema), async (c) => c.json(await svc.createVenue(c.var.db, c.var.user, c.req.valid('json')), 201))
  .post('/venues/register', validate('json', RegisterVenueSchema), async (c) =>
    c.json(await svc.registerVenue(c.var.db, c.var.user, c.req.valid('json')), 201),
  )
  .patch('/venues/:id', validate('param', IdParamSchema), validate('json', UpdateVenueSchema), async (c) =>
    c.json(await svc.updateVenue(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json'), c.var.clock.now())),
  )
  .post('/venues/:id/locations', validate('param', IdParamSchema), validate('json', LocationSchema), async (c) =>
    c.json(await svc.createLocation(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .patch('/locations/:id', validate('param', IdParamSchema), validate('json', LocationSchema), async (c) =>
    c.json(await svc.updateLocation(c.var.db, c.var.user, c.req.valid('param').id, c.req.valid('json'))),
  )
  .delete('/locations/:id', validate('param', IdParamSchema), async (c) =>
    c.json(await svc.deleteLocation(c.var.db, c.var.user, c.req.valid('param').id, c.var.clock)),
  )
  .get('/profile', async (c) => c.json(await svc.getProfile(c.var.db, c.var.user)))
  .put('/profile', validate('json', ProfileSchema), async (c) => c.json(await svc.saveProfile(c.var.db, c.var.user, c.req.valid('json'))));
