import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { queryBool } from '../../lib/validation.ts';
import { roleOrNull } from '../shared/schemas.ts';

export const collectionTitle = z.string().max(50);

export const ListCollectionsQuery = z.object({ ...pageParams, nested: queryBool().optional() });
export const ListCollectionSpacesQuery = z.object({ ...pageParams });

export const CreateCollectionInput = z.strictObject({
  title: collectionTitle.optional(),
  parent: z.string().min(1).optional(),
});

export const UpdateCollectionInput = z.strictObject({
  title: collectionTitle.optional(),
  description: z.string().max(100).optional(),
  defaultLevel: roleOrNull.optional(),
});
